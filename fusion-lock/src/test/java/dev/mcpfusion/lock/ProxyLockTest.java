package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.ProxyUpstream;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lockfile records a {@code @Proxy} action's REST call (method, upstream, path) and classifies
 * any change of it, or a proxy put in or taken out, as RISKY.
 */
class ProxyLockTest {
  // The fixture's action methods are named as its actions and take no parameters.
  static final class Handler {
    void get_invoice() {}
  }

  @ProxyUpstream(name = "billing-api", hosts = "billing.example.com")
  abstract static class Proxied {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "billing-api", hosts = "billing.example.com")
  abstract static class OtherPath {
    @Proxy(upstream = "billing-api", path = "/v2/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "ledger-api", hosts = "ledger.example.com")
  abstract static class OtherUpstream {
    @Proxy(upstream = "ledger-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  private static Contract contract(Class<?> type) {
    RouterDescriptor d = LockFixtures.billing();
    return Contract.of(List.of(new RouterDescriptor(d.name(), d.description(), type,
        d.commonFields(), d.actions(), d.middleware())), LockProfile.defaults());
  }

  private static ActionContract action(Contract contract) {
    return contract.tools().get("billing_get_invoice").actions().get("get_invoice");
  }

  @Test
  void theCallIsRecordedOnlyForAProxyAndSurvivesTheFile() {
    Contract proxied = contract(Proxied.class);
    assertThat(action(proxied).proxy()).isEqualTo("GET billing-api /invoices/{id}");
    String text = Lockfile.write(proxied);
    assertThat(text).contains("\"proxy\": {", "\"method\": \"GET\"", "\"path\": \"/invoices/{id}\"",
        "\"upstream\": \"billing-api\"");
    assertThat(Lockfile.read(text)).isEqualTo(proxied);
    assertThat(Drift.between(Lockfile.read(text), proxied).isEmpty()).isTrue();
    // A handler's entry has no key for it, so lockfiles from before @Proxy do not drift.
    assertThat(Lockfile.write(contract(Handler.class))).doesNotContain("\"proxy\"");
  }

  @Test
  void anotherPathOrUpstreamIsRisky() {
    assertThat(Drift.between(contract(Proxied.class), contract(OtherPath.class)).report()).isEqualTo(
        "RISKY billing_get_invoice: proxy call changed: GET billing-api /invoices/{id} \u2192"
            + " GET billing-api /v2/invoices/{id}");
    assertThat(Drift.between(contract(Proxied.class), contract(OtherUpstream.class)).maxSeverity())
        .hasValue(Severity.RISKY);
  }

  @Test
  void aProxyReplacingAHandlerOrReplacedByOneIsRisky() {
    assertThat(Drift.between(contract(Handler.class), contract(Proxied.class)).report()).isEqualTo(
        "RISKY billing_get_invoice: proxy call changed: handler \u2192 GET billing-api /invoices/{id}");
    assertThat(Drift.between(contract(Proxied.class), contract(Handler.class)).maxSeverity())
        .hasValue(Severity.RISKY);
  }
}
