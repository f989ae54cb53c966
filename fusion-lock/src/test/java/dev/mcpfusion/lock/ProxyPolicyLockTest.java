package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.ProxyUpstream;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.lock.proxypolicy.Packaged;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lockfile records a {@code @Proxy} action's declared upstream policy ({@code @ProxyUpstream}
 * on the router, else its package) inside its {@code proxy} entry, and classifies each change:
 * widening where or how much the connector may call is RISKY, narrowing it SAFE.
 */
class ProxyPolicyLockTest {
  /**
   * A proxy as a lockfile written before every upstream had to be declared records it (the
   * processor now refuses this router with {@code [fusion/UndeclaredProxyUpstream]}).
   */
  abstract static class Undeclared {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "billing-api", hosts = "billing.example.com")
  abstract static class Declared {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "billing-api", hosts = {"billing.example.com", "*.example.net"})
  abstract static class AnotherHost {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "billing-api", hosts = "billing.example.com", schemes = {"https", "http"})
  abstract static class HttpAllowed {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "billing-api", hosts = "billing.example.com", maxResponseBytes = 4 * 1024 * 1024)
  abstract static class LargerCap {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "billing-api", hosts = "billing.example.com", connectTimeoutMs = 1_000, timeoutMs = 60_000)
  abstract static class OtherTimeouts {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  @ProxyUpstream(name = "ledger-api", hosts = "ledger.example.com")
  abstract static class OtherUpstreamDeclared {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }

  private static Contract contract(Class<?> type) {
    RouterDescriptor d = LockFixtures.billing();
    return Contract.of(List.of(new RouterDescriptor(d.name(), d.description(), type,
        d.commonFields(), d.actions(), d.middleware())), LockProfile.defaults());
  }

  private static ActionContract action(Class<?> type) {
    return contract(type).tools().get("billing_get_invoice").actions().get("get_invoice");
  }

  private static String drift(Class<?> before, Class<?> after) {
    return Drift.between(contract(before), contract(after)).report();
  }

  @Test
  void theDeclaredPolicyIsRecordedInsideTheProxyEntryAndSurvivesTheFile() {
    assertThat(action(Declared.class).proxyPolicy()).isEqualTo(
        new ProxyPolicy(List.of("billing.example.com"), List.of("https"), 1024 * 1024, 5_000, 30_000));
    String text = Lockfile.write(contract(Declared.class));
    assertThat(text).contains("\"policy\": {", "\"hosts\": [", "\"billing.example.com\"", "\"schemes\": [",
        "\"maxResponseBytes\": 1048576", "\"connectTimeoutMs\": 5000", "\"timeoutMs\": 30000");
    assertThat(Lockfile.read(text)).isEqualTo(contract(Declared.class));
    // An entry from before the declaration was required (or a declaration of another upstream,
    // which the processor refuses) writes no policy.
    assertThat(Lockfile.write(contract(Undeclared.class))).doesNotContain("\"policy\"");
    assertThat(action(OtherUpstreamDeclared.class).proxyPolicy()).isNull();
  }

  @Test
  void aPackageDeclarationIsReadUnlessTheRouterDeclaresTheName() {
    assertThat(action(Packaged.class).proxyPolicy().hosts()).containsExactly("billing.example.com");
    assertThat(action(Packaged.Overriding.class).proxyPolicy().hosts()).containsExactly("eu.billing.example.com");
  }

  @Test
  void aNewHostIsRiskyAndADroppedOneSafe() {
    assertThat(drift(Declared.class, AnotherHost.class)).isEqualTo("RISKY billing_get_invoice: proxy upstream may now"
        + " call host \"*.example.net\": [billing.example.com] \u2192 [*.example.net, billing.example.com]");
    assertThat(Drift.between(contract(AnotherHost.class), contract(Declared.class)).maxSeverity())
        .hasValue(Severity.SAFE);
  }

  @Test
  void httpAllowedIsRiskyAndHttpDroppedSafe() {
    assertThat(drift(Declared.class, HttpAllowed.class)).isEqualTo("RISKY billing_get_invoice: proxy upstream may now"
        + " call scheme \"http\": [https] \u2192 [http, https]");
    assertThat(Drift.between(contract(HttpAllowed.class), contract(Declared.class)).maxSeverity())
        .hasValue(Severity.SAFE);
  }

  @Test
  void aLargerCapIsRiskyAndASmallerOneSafe() {
    assertThat(drift(Declared.class, LargerCap.class)).isEqualTo(
        "RISKY billing_get_invoice: proxy upstream maxResponseBytes raised: 1048576 \u2192 4194304");
    assertThat(Drift.between(contract(LargerCap.class), contract(Declared.class)).maxSeverity())
        .hasValue(Severity.SAFE);
  }

  @Test
  void aLongerTimeoutIsRiskyAndAShorterOneSafe() {
    assertThat(drift(Declared.class, OtherTimeouts.class)).isEqualTo(String.join("\n",
        "SAFE billing_get_invoice: proxy upstream connectTimeoutMs lowered: 5000 \u2192 1000",
        "RISKY billing_get_invoice: proxy upstream timeoutMs raised: 30000 \u2192 60000"));
  }

  @Test
  void aPolicyRecordedWhereAnOlderLockfileHasNoneIsSafeAndTheReverseRisky() {
    Contract older = Lockfile.read(Lockfile.write(contract(Undeclared.class)));
    assertThat(Drift.between(older, contract(Declared.class)).report()).startsWith(
        "SAFE billing_get_invoice: proxy upstream policy declared: none \u2192");
    assertThat(Drift.between(contract(Declared.class), older).report()).startsWith(
        "RISKY billing_get_invoice: proxy upstream policy removed (only the server's configuration bounds where"
            + " it calls): [https] [billing.example.com] 1048576 B, 5000/30000 ms \u2192 none");
  }
}
