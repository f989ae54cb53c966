package dev.mcpfusion.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.mcpfusion.outbound.rest.DeclaredInvoiceApi_Hurried_Proxy;
import dev.mcpfusion.outbound.rest.DeclaredInvoiceApi_Proxy;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import dev.mcpfusion.wire.Codes;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @ProxyUpstream} at run time: the generated {@code DeclaredInvoiceApi_Proxy} refuses a
 * configured base URL outside the declared hosts and schemes, holds every redirect to them, and
 * reads with the declared cap and deadline unless the configured client's own are lower. Real
 * HTTP servers on loopback addresses, which the configured policy admits by address.
 */
class DeclaredUpstreamTest {
  private static final String INVOICE = "{\"id\":\"INV-1\",\"totalCents\":1200,\"status\":\"OPEN\"}";

  private final CountDownLatch release = new CountDownLatch(1);
  private final List<OutboundHttp> clients = new ArrayList<>();
  private Listener upstream;
  private Listener elsewhere;
  private FusionTester tester;

  @BeforeEach
  void start() {
    elsewhere = Listener.on("127.0.0.3", Listener.answering(200, INVOICE));
    upstream = Listener.on("127.0.0.2", this::answer);
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (tester != null) {
      tester.close();
    }
    clients.forEach(OutboundHttp::close);
    upstream.close();
    elsewhere.close();
  }

  private void answer(HttpExchange exchange) throws IOException {
    switch (exchange.getRequestURI().getRawPath()) {
      case "/v1/invoices/INV-1" -> Listener.answering(200, INVOICE).handle(exchange);
      case "/v1/invoices/LARGE" -> Listener.answering(200, "{\"id\":\"" + "x".repeat(600) + "\"}").handle(exchange);
      case "/v1/invoices/AWAY" -> Listener.redirectingTo(302,
          "http://127.0.0.3:" + elsewhere.port() + "/v1/invoices/INV-1").handle(exchange);
      case "/v1/invoices/SLOW" -> {
        try {
          // Held until the declared 1 s deadline abandons the call (bounded: released after the test).
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        Listener.answering(200, INVOICE).handle(exchange);
      }
      default -> Listener.answering(404, "{}").handle(exchange);
    }
  }

  /** A client whose own policy admits both loopback listeners: only the declaration tells them apart. */
  private OutboundHttp client(long maxResponseBytes) {
    OutboundHttp http = OutboundHttp.builder()
        .policy(UrlPolicy.defaults().allowAddresses("127.0.0.2", "127.0.0.3")
            .allowPorts(upstream.port(), elsewhere.port()))
        .maxResponseBytes(maxResponseBytes)
        .build();
    clients.add(http);
    return http;
  }

  private FusionTester tester(String baseUrl, OutboundHttp http) {
    tester = FusionTester.of(new DeclaredInvoiceApi_Proxy(
        ProxyUpstreams.builder().upstream("billing-api", baseUrl, http).build()));
    return tester;
  }

  @Test
  void aBaseUrlOnTheDeclaredHostAndSchemeIsCalled() {
    ToolResult result = tester("http://127.0.0.2:" + upstream.port() + "/v1", client(1024 * 1024))
        .callTool("declared_get_invoice", Map.of("id", "INV-1"));

    assertThat(result.isSuccess()).as(result.raw()).isTrue();
    assertThat(result.structuredContent()).containsEntry("id", "INV-1");
  }

  @Test
  void aBaseUrlOnAnotherHostOrSchemeIsRefusedAtConstructionNamingTheRouterAndTheFix() {
    OutboundHttp http = client(1024 * 1024);
    for (String baseUrl : new String[] {"http://127.0.0.3:" + elsewhere.port() + "/v1",
        "https://127.0.0.2:" + upstream.port() + "/v1", "http://user:secret@127.0.0.4/v1"}) {
      ProxyUpstreams configured = ProxyUpstreams.builder().upstream("billing-api", baseUrl, http).build();
      assertThatThrownBy(() -> new DeclaredInvoiceApi_Proxy(configured))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("The upstream \"billing-api\" of DeclaredInvoiceApi")
          .hasMessageContaining("@ProxyUpstream: http://127.0.0.2")
          .hasMessageContaining("Configure a base URL on a declared host and scheme, or widen the declaration")
          .hasMessageNotContaining("secret");
    }
    assertThat(elsewhere.hits()).isZero();
  }

  @Test
  void aRedirectOffTheDeclaredHostsIsNotFollowed() {
    ToolResult result = tester("http://127.0.0.2:" + upstream.port() + "/v1", client(1024 * 1024))
        .callTool("declared_get_invoice", Map.of("id", "AWAY"));

    assertThat(result.errorCode()).isEqualTo(Codes.OUTBOUND_BLOCKED);
    assertThat(result.details()).containsEntry("reason", "redirect").containsEntry("api", "billing-api");
    assertThat(elsewhere.hits()).isZero();
  }

  @Test
  void theDeclaredCapAppliesWhenTheClientsIsLargerAndTheClientsWhenItIsSmaller() {
    ToolResult declaredCap = tester("http://127.0.0.2:" + upstream.port() + "/v1", client(1024 * 1024))
        .callTool("declared_get_invoice", Map.of("id", "LARGE"));
    tester.close();
    ToolResult clientCap = tester("http://127.0.0.2:" + upstream.port() + "/v1", client(100))
        .callTool("declared_get_invoice", Map.of("id", "INV-1"));

    assertThat(declaredCap.errorCode()).isEqualTo(Codes.UPSTREAM_TOO_LARGE);
    assertThat(declaredCap.details()).containsEntry("limit_bytes", "512").containsEntry("api", "billing-api");
    assertThat(clientCap.isSuccess()).as(clientCap.raw()).isTrue();
    ToolResult clientCapLarge = tester.callTool("declared_get_invoice", Map.of("id", "LARGE"));
    assertThat(clientCapLarge.details()).containsEntry("limit_bytes", "100");
  }

  @Test
  void theDeclaredTimeoutsNarrowTheClientsAndNeverWidenThem() {
    DeclaredUpstream declared = new DeclaredUpstream("billing-api", List.of("127.0.0.2"), List.of("http"), 512, 2_000, 2_000);
    OutboundHttp defaults = client(1024 * 1024);
    OutboundHttp tight = OutboundHttp.builder()
        .timeouts(Duration.ofMillis(500), Duration.ofMillis(500), Duration.ofMillis(700)).build();
    clients.add(tight);

    assertThat(defaults.within(declared).okhttp().connectTimeoutMillis()).isEqualTo(2_000);
    assertThat(defaults.within(declared).okhttp().callTimeoutMillis()).isEqualTo(2_000);
    assertThat(tight.within(declared).okhttp().connectTimeoutMillis()).isEqualTo(500);
    assertThat(tight.within(declared).okhttp().callTimeoutMillis()).isEqualTo(700);
  }

  @Test
  void theDeclaredDeadlineAbandonsACallTheClientWouldStillWaitFor() {
    // The client's own deadline is its default 30 s; the declaration's 1 s is the one that applies.
    tester = FusionTester.of(new DeclaredInvoiceApi_Hurried_Proxy(ProxyUpstreams.builder()
        .upstream("billing-api", "http://127.0.0.2:" + upstream.port() + "/v1", client(1024 * 1024)).build()));
    ToolResult result = tester.callTool("hurried_get_invoice", Map.of("id", "SLOW"));

    assertThat(result.errorCode()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
    assertThat(result.details()).containsEntry("reason", "timeout").containsEntry("api", "billing-api");
  }
}
