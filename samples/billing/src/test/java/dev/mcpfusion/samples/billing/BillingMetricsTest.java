package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.fixtures.HttpWire;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * {@code --metrics}: after real MCP calls over HTTP, the sample's Prometheus endpoint shows the MCP
 * operation and session durations, labelled by the conventions (no OpenTelemetry involved).
 */
class BillingMetricsTest {
  private final HttpWire wire = new HttpWire();

  @Test
  void prometheusEndpointShowsTheMcpMetricsAfterHttpCalls() throws Exception {
    try (BillingMetrics metrics = BillingMetrics.serve(0);
        FusionHttpServer http = FusionHttp.serve(
            BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT)
                .meter(metrics.meter()).build(),
            HttpOptions.port(0))) {
      String url = http.endpoint().toString();
      String session = wire.session(url);
      wire.post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"billing_list_invoices\",\"arguments\":{\"status\":\"OPEN\"}}}");
      wire.post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"billing_list_invoices\",\"arguments\":{\"status\":\"NOPE\"}}}");
      wire.client().send(HttpRequest.newBuilder(URI.create(url)).header("Mcp-Session-Id", session)
          .DELETE().build(), HttpResponse.BodyHandlers.ofString());

      HttpResponse<String> scrape = wire.client().send(
          HttpRequest.newBuilder(metrics.endpoint()).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type")).hasValue(BillingMetrics.CONTENT_TYPE);
      String text = scrape.body();
      assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{error_type=\"\","
          + "[^}]*gen_ai_tool_name=\"billing_list_invoices\"[^}]*mcp_method_name=\"tools/call\""
          + "[^}]*network_transport=\"tcp\"[^}]*\\} 1");
      assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{"
          + "error_type=\"VALIDATION_ERROR\"[^}]*gen_ai_tool_name=\"billing_list_invoices\"");
      assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{[^}]*"
          + "mcp_method_name=\"initialize\"");
      assertThat(text).containsPattern("mcp_server_session_duration_seconds_count\\{[^}]*"
          + "network_transport=\"tcp\"[^}]*\\} 1");
    }
  }
}
