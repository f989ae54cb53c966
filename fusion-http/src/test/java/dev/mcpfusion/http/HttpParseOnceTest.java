package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** HTTP hands every POST body to the edge, which parses it exactly once. */
class HttpParseOnceTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private HttpResponse<String> post(FusionHttpServer server, String session, String body,
      String... headers) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(server.endpoint())
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      builder.header("Mcp-Session-Id", session);
    }
    if (headers.length > 0) {
      builder.headers(headers);
    }
    return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void everyBodyIsParsedOnceByTheEdge() throws Exception {
    fiveBodiesParsedFiveTimes(HttpOptions.port(0).stopOnShutdownSignal(false));
  }

  @Test
  void everyBodyIsParsedOnceWhenTheIoThreadFrontReadsItFirst() throws Exception {
    fiveBodiesParsedFiveTimes(HttpOptions.port(0).stopOnShutdownSignal(false).answerOnIoThread(true));
  }

  private void fiveBodiesParsedFiveTimes(HttpOptions options) throws Exception {
    FusionServer fusion = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    try (FusionHttpServer server = FusionHttp.serve(fusion, options)) {
      long before = fusion.edge().messagesParsed();
      HttpResponse<String> init = post(server, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
          + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
      assertThat(post(server, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode())
          .isEqualTo(202);
      assertThat(post(server, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"}}}").statusCode()).isEqualTo(200);
      assertThat(post(server, null, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"},\"_meta\":"
          + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}", "MCP-Protocol-Version",
          "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "ops_echo").statusCode()).isEqualTo(200);
      assertThat(post(server, session, "{oops").statusCode()).isEqualTo(400);
      assertThat(fusion.edge().messagesParsed() - before).isEqualTo(5);
    }
  }
}
