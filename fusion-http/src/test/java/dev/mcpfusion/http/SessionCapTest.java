package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The cap on open Streamable HTTP sessions: 503 with Retry-After and a clean JSON-RPC body. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SessionCapTest {
  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
      + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
      + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> post(String url, String body, String... headers) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url));
    if (headers.length > 0) {
      builder.headers(headers);
    }
    return http.send(builder
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anInitializeBeyondTheCapIsServiceUnavailableUntilASessionEnds() throws Exception {
    FusionServer server = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    try (FusionHttpServer running = FusionHttp.serve(server,
        HttpOptions.port(0).stopOnShutdownSignal(false).maxSessions(2))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String first = post(url, INITIALIZE).headers().firstValue("Mcp-Session-Id").orElseThrow();
      assertThat(post(url, INITIALIZE).statusCode()).isEqualTo(200);

      HttpResponse<String> refused = post(url, INITIALIZE);
      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("5");
      assertThat(refused.headers().firstValue("Mcp-Session-Id")).isEmpty();
      assertThat(refused.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,"
          + "\"message\":\"Service Unavailable: this server has 2 open sessions, the most it allows; "
          + "retry after 5 seconds, or end an unused session with DELETE.\"}}");

      // A stateless 2026-07-28 request holds no session and is served meanwhile.
      assertThat(post(url, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{"
          + "\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"},\"_meta\":{"
          + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}", "MCP-Protocol-Version", "2026-07-28",
          "Mcp-Method", "tools/call", "Mcp-Name", "ops_echo").body()).contains("\"text\":\"hi\"");

      HttpResponse<String> ended = http.send(HttpRequest.newBuilder(URI.create(url))
          .header("Mcp-Session-Id", first).DELETE().build(), HttpResponse.BodyHandlers.ofString());
      assertThat(ended.statusCode()).isEqualTo(204);
      assertThat(post(url, INITIALIZE).statusCode()).isEqualTo(200);
    }
  }
}
