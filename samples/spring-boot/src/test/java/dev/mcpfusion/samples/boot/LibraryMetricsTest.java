package dev.mcpfusion.samples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The MCP server metrics in Boot's actuator: after a session's calls over real HTTP (and its
 * end), {@code /actuator/prometheus} shows both MCP histograms, labelled by the conventions.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibraryMetricsTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @LocalServerPort
  int port;

  private HttpResponse<String> post(String session, String body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void actuatorPrometheusShowsBothMcpMetricsAfterCalls() throws Exception {
    HttpResponse<String> init = post(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"metrics-test\",\"version\":\"1\"}}}");
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    HttpResponse<String> call = post(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
        + "\"params\":{\"name\":\"library_get_book\",\"arguments\":{\"id\":\"BK-2\"}}}");
    assertThat(call.statusCode()).isEqualTo(200);
    http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
        .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25")
        .DELETE().build(), HttpResponse.BodyHandlers.ofString());

    String text = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
        HttpResponse.BodyHandlers.ofString()).body();

    assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{[^}]*"
        + "gen_ai_tool_name=\"library_get_book\"[^}]*mcp_method_name=\"tools/call\"[^}]*"
        + "network_transport=\"tcp\"[^}]*\\} 1");
    assertThat(text).containsPattern("mcp_server_operation_duration_seconds_count\\{[^}]*"
        + "mcp_method_name=\"initialize\"");
    assertThat(text).containsPattern("mcp_server_session_duration_seconds_count\\{[^}]*"
        + "mcp_protocol_version=\"2025-11-25\"[^}]*network_transport=\"tcp\"[^}]*\\} 1");
  }
}
