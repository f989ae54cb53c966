package dev.mcpfusion.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.mcpfusion.outbound.rest.InvoiceApi_Proxy;
import dev.mcpfusion.resilience.UpstreamPolicy;
import dev.mcpfusion.resilience.Upstreams;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import dev.mcpfusion.wire.Codes;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @Proxy} actions end to end: the generated {@code InvoiceApi_Proxy} calls a real HTTP
 * server on loopback through the guarded client, and the agent reads the JSON through the view.
 */
class ProxyActionsTest {
  private static final String INVOICE =
      "{\"id\":\"INV-1\",\"totalCents\":1200,\"status\":\"OPEN\",\"internalNote\":\"call the CFO\",\"apiKey\":\"sk_live_42\"}";

  private Listener upstream;
  private OutboundHttp http;
  private Upstreams breakers;
  private FusionTester tester;

  @BeforeEach
  void start() {
    upstream = Listener.on("127.0.0.2", ProxyActionsTest::answer);
    breakers = Upstreams.create(UpstreamPolicy.defaults().window(2, 2).openFor(Duration.ofMinutes(1)));
    http = OutboundHttp.builder()
        .policy(UrlPolicy.defaults().allowAddresses("127.0.0.2").allowPorts(upstream.port()))
        .maxResponseBytes(1024)
        .breakers(breakers)
        .build();
    ProxyUpstreams upstreams = ProxyUpstreams.builder()
        .upstream("billing-api", "http://127.0.0.2:" + upstream.port() + "/v1/", http)
        .header("billing-api", "Authorization", "Bearer t0k3n")
        .build();
    tester = FusionTester.of(new InvoiceApi_Proxy(upstreams));
  }

  @AfterEach
  void stop() {
    tester.close();
    http.close();
    upstream.close();
  }

  private static void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    switch (path) {
      case "/v1/invoices/INV-1", "/v1/invoices/INV-1/void" ->
          Listener.answering(200, path.endsWith("void") ? INVOICE.replace("OPEN", "VOID") : INVOICE).handle(exchange);
      case "/v1/customers/ACME%20Corp/invoices" ->
          Listener.answering(200, "[" + INVOICE + "," + INVOICE.replace("INV-1", "INV-2") + "]").handle(exchange);
      case "/v1/invoices/BOOM" -> Listener.answering(500, "{\"error\":\"NullPointerException at com.billing.Db\"}").handle(exchange);
      case "/v1/invoices/HUGE" -> Listener.answering(200, "{\"id\":\"" + "x".repeat(2048) + "\"}").handle(exchange);
      case "/v1/invoices/CONFLICT" -> Listener.answering(409, "{\"error\":\"locked by batch 7\"}").handle(exchange);
      case "/v1/invoices/HTML" -> Listener.answering(200, "<html>maintenance</html>").handle(exchange);
      default -> Listener.answering(404, "{\"error\":\"no such row in table invoices_v2\"}").handle(exchange);
    }
  }

  @Test
  void aProxyActionCallsThePathAndOnlyTheViewsFieldsReachTheAgent() {
    ToolResult result = tester.callTool("invoices_get_invoice", Map.of("id", "INV-1"));

    assertThat(result.isSuccess()).as(result.raw()).isTrue();
    assertThat(result.structuredContent()).isEqualTo(Map.of("id", "INV-1", "totalCents", 1200, "status", "OPEN"));
    assertThat(result.raw()).doesNotContain("call the CFO", "sk_live_42");
    assertThat(upstream.requests()).containsExactly("GET /v1/invoices/INV-1 ");
    assertThat(upstream.authorizations()).containsExactly("Bearer t0k3n");
  }

  @Test
  void theOtherArgumentsAreTheQueryOfAGetAndTheJsonBodyOfAPost() {
    ToolResult list = tester.callTool("invoices_list_invoices", Map.of("customer", "ACME Corp", "status", "OPEN", "limit", 2));
    ToolResult voided = tester.callTool("invoices_void_invoice", Map.of("id", "INV-1", "reason", "duplicate"));

    assertThat(list.isSuccess()).as(list.raw()).isTrue();
    assertThat(list.dataText()).contains("INV-1", "INV-2").doesNotContain("call the CFO");
    assertThat(voided.isSuccess()).as(voided.raw()).isTrue();
    assertThat(voided.structuredContent()).containsEntry("status", "VOID");
    assertThat(upstream.requests()).containsExactly(
        "GET /v1/customers/ACME%20Corp/invoices?status=OPEN&limit=2 ",
        "POST /v1/invoices/INV-1/void {\"reason\":\"duplicate\"}");
  }

  @Test
  void anArgumentCannotLeaveItsPathSegment() {
    ToolResult escaped = tester.callTool("invoices_get_invoice", Map.of("id", "../admin?x=1#y"));
    ToolResult dots = tester.callTool("invoices_get_invoice", Map.of("id", ".."));

    assertThat(escaped.errorCode()).isEqualTo(Codes.NOT_FOUND);
    assertThat(upstream.requests()).containsExactly("GET /v1/invoices/..%2Fadmin%3Fx%3D1%23y ");
    assertThat(dots.errorCode()).isEqualTo(Codes.VALIDATION_ERROR);
    assertThat(dots.errorText()).contains("'id'");
    assertThat(upstream.hits()).isEqualTo(1);
  }

  @Test
  void anUpstream404IsNotFoundNamingTheUpstreamNotItsErrorText() {
    ToolResult result = tester.callTool("invoices_get_invoice", Map.of("id", "INV-404"));

    assertThat(result.errorCode()).isEqualTo(Codes.NOT_FOUND);
    assertThat(result.errorText()).contains("billing-api", "GET /invoices/{id}", "HTTP 404");
    assertThat(result.raw()).doesNotContain("invoices_v2");
  }

  @Test
  void anUpstream409IsConflictWithItsStatus() {
    ToolResult result = tester.callTool("invoices_get_invoice", Map.of("id", "CONFLICT"));

    assertThat(result.errorCode()).isEqualTo("CONFLICT");
    assertThat(result.errorText()).contains("billing-api", "HTTP 409");
    assertThat(result.details()).containsEntry("status", "409");
    assertThat(result.raw()).doesNotContain("batch 7");
  }

  @Test
  void anUpstream500IsAClearEnvelopeAndTheBreakerCountsIt() {
    ToolResult first = tester.callTool("invoices_get_invoice", Map.of("id", "BOOM"));
    tester.callTool("invoices_get_invoice", Map.of("id", "BOOM"));
    ToolResult third = tester.callTool("invoices_get_invoice", Map.of("id", "BOOM"));

    assertThat(first.errorCode()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
    assertThat(first.errorText()).contains("billing-api", "HTTP 500");
    assertThat(first.details()).containsEntry("upstream", "billing-api").containsEntry("status", "500");
    assertThat(first.raw()).doesNotContain("NullPointerException");
    assertThat(third.errorCode()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
    assertThat(third.details()).containsEntry("circuit", "open").containsEntry("api", "billing-api");
    assertThat(upstream.hits()).isEqualTo(2);
    assertThat(breakers.upstream("127.0.0.2").state()).isEqualTo(dev.mcpfusion.resilience.Upstream.State.OPEN);
  }

  @Test
  void anOversizedAnswerIsCappedAndAnAnswerThatIsNotJsonIsNamed() {
    ToolResult huge = tester.callTool("invoices_get_invoice", Map.of("id", "HUGE"));
    ToolResult html = tester.callTool("invoices_get_invoice", Map.of("id", "HTML"));

    assertThat(huge.errorCode()).isEqualTo(Codes.UPSTREAM_TOO_LARGE);
    assertThat(huge.details()).containsEntry("limit_bytes", "1024").containsEntry("api", "billing-api");
    assertThat(html.errorCode()).isEqualTo(Codes.UPSTREAM_ERROR);
    assertThat(html.errorText()).contains("billing-api", "not JSON");
    assertThat(html.raw()).doesNotContain("maintenance");
  }

  @Test
  void anUpstreamTheActionsNameButNoOneConfiguredFailsAtConstruction() {
    ProxyUpstreams none = ProxyUpstreams.builder().build();

    assertThatThrownBy(() -> new InvoiceApi_Proxy(none))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("InvoiceApi.getInvoice")
        .hasMessageContaining("\"billing-api\"")
        .hasMessageContaining("upstream(\"billing-api\", baseUrl, http)");
  }

  @Test
  void theUpstreamsRefuseABadNameABadBaseUrlAndAFramingHeader() {
    assertThatThrownBy(() -> ProxyUpstreams.builder().upstream("Billing", "https://api.example.com", http))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[a-z][a-z0-9-]*");
    assertThatThrownBy(() -> ProxyUpstreams.builder().upstream("billing", "https://api.example.com/v1?key=1", http))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without query");
    assertThatThrownBy(() -> ProxyUpstreams.builder().upstream("billing", "https://api.example.com", http)
        .header("billing", "Host", "127.0.0.1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Host");
  }
}
