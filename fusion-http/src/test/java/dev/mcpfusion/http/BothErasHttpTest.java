package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * One HTTP endpoint, a real SDK client of each era: the classic Streamable HTTP client (2025-11-25,
 * initialize + session) and the modern client (2026-07-28, stateless, no handshake).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BothErasHttpTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<AutoCloseable> open = new ArrayList<>();
  private FusionHttpServer running;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    if (running != null) {
      running.close();
    }
  }

  private String start() {
    FusionServer server = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false));
    return "http://127.0.0.1:" + running.port();
  }

  private McpSyncClient classic(String base) {
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").build())
        .requestTimeout(Duration.ofSeconds(20))
        .build();
    open.add(0, client::close);
    client.initialize();
    return client;
  }

  private static io.modelcontextprotocol.modern.client.McpSyncClient modern(String base) {
    return io.modelcontextprotocol.modern.client.McpClient
        .sync(HttpClientMcpTransport.builder(base + "/mcp").build())
        .callTimeout(Duration.ofSeconds(20))
        .build();
  }

  /** What an agent sees of a result: content, structuredContent, isError and the mcpfusion/* _meta. */
  private static Map<String, Object> seen(Object result) {
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = JSON.convertValue(result, Map.class);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("content", tree.get("content"));
    out.put("structuredContent", tree.get("structuredContent"));
    out.put("isError", Boolean.TRUE.equals(tree.get("isError")));
    Map<String, Object> meta = new LinkedHashMap<>();
    if (tree.get("_meta") instanceof Map<?, ?> m) {
      m.forEach((k, v) -> {
        if (String.valueOf(k).startsWith("mcpfusion/")) {
          meta.put(String.valueOf(k), v);
        }
      });
    }
    out.put("mcpfusion_meta", meta);
    return out;
  }

  @Test
  void realClientsOfBothErasSeeTheSameToolsAndAnswersOnOneEndpoint() {
    String base = start();
    io.modelcontextprotocol.modern.client.McpSyncClient modern = modern(base);

    // The modern client first: no initialize has ever reached this endpoint.
    io.modelcontextprotocol.modern.McpSchema.CallToolResult modernEcho =
        modern.tool("ops_echo").arguments(Map.of("text", "hi")).call();
    McpSyncClient classic = classic(base);
    McpSchema.CallToolResult classicEcho =
        classic.callTool(new McpSchema.CallToolRequest("ops_echo", Map.of("text", "hi")));
    assertThat(classicEcho.isError()).isNotEqualTo(Boolean.TRUE);
    assertThat(seen(modernEcho)).isEqualTo(seen(classicEcho));
    assertThat(JSON.writeValueAsString(seen(classicEcho).get("content"))).contains("hi");

    assertThat(JSON.convertValue(modern.tools().list().tools(), List.class))
        .isEqualTo(JSON.convertValue(classic.listTools().tools(), List.class));

    // 70000 breaks the schema's maximum: the SDK's modern validator would say "Invalid arguments".
    Map<String, Object> bad = Map.of("millis", 70000);
    McpSchema.CallToolResult classicBad = classic.callTool(new McpSchema.CallToolRequest("ops_slow", bad));
    io.modelcontextprotocol.modern.McpSchema.CallToolResult modernBad = modern.tool("ops_slow").arguments(bad).call();
    assertThat(classicBad.isError()).isTrue();
    assertThat(((McpSchema.TextContent) classicBad.content().get(0)).text())
        .startsWith("<validation_error action=\"ops/slow\">\n<field name=\"millis\">must be less than or equal to 60000.");
    assertThat(seen(modernBad)).isEqualTo(seen(classicBad));
  }

  @Test
  void anUnknownToolGetsTheEdgeTextInBothEras() throws Exception {
    String base = start();
    String expected = "<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n"
        + "<message>The tool \"ops_nope\" does not exist.</message>";
    McpSyncClient classic = classic(base);
    McpError classicError = (McpError) org.assertj.core.api.Assertions.catchThrowable(
        () -> classic.callTool(new McpSchema.CallToolRequest("ops_nope", Map.of())));
    assertThat(classicError).isNotNull();
    assertThat(classicError.getJsonRpcError().message()).startsWith(expected);

    // The modern SDK client refuses, client-side, to call a tool the server does not list over
    // HTTP, so the 2026-07-28 request is sent as that client would send it.
    HttpResponse<String> modern = post(base, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"ops_nope\",\"arguments\":{}," + MODERN_META + "}}",
        "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "ops_nope");
    assertThat(modern.statusCode()).isEqualTo(400);
    @SuppressWarnings("unchecked")
    Map<String, Object> error = (Map<String, Object>) JSON.readValue(modern.body(), Map.class).get("error");
    assertThat(error.get("code")).isEqualTo(-32602);
    assertThat(error.get("message")).isEqualTo(classicError.getJsonRpcError().message());
    assertThat(error.get("data")).isEqualTo(JSON.convertValue(classicError.getJsonRpcError().data(), Map.class));
    assertThat(error.get("data")).isEqualTo(Map.of("code", "UNKNOWN_TOOL",
        "available", List.of("ops_echo", "ops_whoami", "ops_slow", "ops_meet")));
  }

  private HttpResponse<String> post(String base, String body, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aStatelessCallNeedsNoHandshakeNoSessionAndSeesHeadersAndTheVersion() throws Exception {
    String base = start();
    HttpResponse<String> call = post(base, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"ops_whoami\",\"arguments\":{}," + MODERN_META + "}}",
        "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "ops_whoami",
        "X-Tenant", "t_9");
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(call.body()).contains("\"id\":7").contains("tenant=t_9 protocol=2026-07-28")
        .contains("\"io.modelcontextprotocol/serverInfo\"");

    HttpResponse<String> discover = post(base, "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\","
        + "\"params\":{" + MODERN_META + "}}", "MCP-Protocol-Version", "2026-07-28",
        "Mcp-Method", "server/discover");
    assertThat(discover.statusCode()).isEqualTo(200);
    assertThat(discover.body()).contains("2026-07-28").contains("\"tools\"");

    HttpResponse<String> mismatch = post(base, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"x\"}," + MODERN_META + "}}",
        "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list");
    assertThat(mismatch.statusCode()).isEqualTo(400);
    assertThat(mismatch.body()).contains("-32020").contains("\"id\":8");

    HttpResponse<String> future = post(base, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":"
        + "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    assertThat(future.statusCode()).isEqualTo(400);
    assertThat(future.body()).contains("-32022").contains("2026-07-28");

    // The classic path is unchanged: a 2025 request without a session still needs initialize.
    HttpResponse<String> classic = post(base, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\"}",
        "MCP-Protocol-Version", "2025-11-25");
    assertThat(classic.statusCode()).isEqualTo(400);
    assertThat(classic.body()).contains("Mcp-Session-Id");
  }

  @Test
  void aTasksRequestWhoseMcpNameIsNotItsTaskIdIsRefused() throws Exception {
    String base = start();
    HttpResponse<String> mismatch = post(base, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tasks/get\","
        + "\"params\":{\"taskId\":\"t-1\"," + MODERN_META + "}}",
        "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/get", "Mcp-Name", "t-2");
    assertThat(mismatch.statusCode()).isEqualTo(400);
    assertThat(mismatch.body()).contains("-32020").contains("\"id\":11").contains("params.taskId");

    HttpResponse<String> missing = post(base, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tasks/cancel\","
        + "\"params\":{\"taskId\":\"t-1\"," + MODERN_META + "}}",
        "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/cancel");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).contains("-32020").contains("send Mcp-Name: t-1");
  }
}
