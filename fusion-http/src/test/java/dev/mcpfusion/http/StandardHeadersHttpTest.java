package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 2026-07-28 standard request headers over real HTTP: {@code Mcp-Method} on every request and
 * notification, {@code Mcp-Name} on {@code tools/call}, {@code prompts/get} and
 * {@code resources/read}, {@code MCP-Protocol-Version} beside the version in {@code _meta}. A
 * missing or disagreeing header is 400 with -32020 (HeaderMismatch) and a message that names the
 * header and the value to send; the 2025 era is unchanged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StandardHeadersHttpTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
  private static final String ECHO = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
      + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"}," + META + "}}";
  private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" + META + "}}";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private FusionHttpServer running;
  private URI endpoint;

  @BeforeEach
  void start() {
    FusionServer server = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false));
    endpoint = running.endpoint();
  }

  @AfterEach
  void stop() {
    running.close();
  }

  private HttpResponse<String> post(String body, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> error(HttpResponse<String> response) {
    return (Map<String, Object>) JSON.readValue(response.body(), Map.class).get("error");
  }

  private static void assertMismatch(HttpResponse<String> response, String message) {
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response)).containsEntry("code", -32020).containsEntry("message", message);
  }

  @Test
  void aMissingMcpMethodIsRefusedAndNamesTheValueToSend() throws Exception {
    assertMismatch(post(LIST, "MCP-Protocol-Version", "2026-07-28"),
        "Header mismatch: the Mcp-Method header is missing. Every 2026-07-28 request and"
            + " notification over HTTP carries its JSON-RPC method there: send Mcp-Method: tools/list.");
    // A notification too: it is refused, not accepted with 202.
    HttpResponse<String> notification = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
        + "\"params\":{\"requestId\":1," + META + "}}", "MCP-Protocol-Version", "2026-07-28");
    assertThat(notification.statusCode()).isEqualTo(400);
    assertThat(error(notification)).containsEntry("code", -32020);
  }

  @Test
  void aDisagreeingMcpMethodIsRefusedAndValuesAreCaseSensitive() throws Exception {
    assertMismatch(post(LIST, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "prompts/list"),
        "Header mismatch: the Mcp-Method header \"prompts/list\" does not match the method"
            + " \"tools/list\" (values are case-sensitive): send Mcp-Method: tools/list.");
    assertThat(post(LIST, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "TOOLS/LIST").statusCode())
        .isEqualTo(400);
    // The id of the refused request is in the body, so the client can match it.
    assertThat(post(LIST, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "x").body()).contains("\"id\":2");
  }

  @Test
  void correctHeadersAreServedWhateverTheCaseOfTheirNamesAndTheWhitespaceAroundTheirValues()
      throws Exception {
    HttpResponse<String> list = post(LIST, "mcp-protocol-version", "2026-07-28", "MCP-METHOD", " tools/list ");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).contains("\"ops_echo\"");
    HttpResponse<String> call = post(ECHO, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
        "mcp-name", "  ops_echo\t");
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.body()).contains("\"text\":\"hi\"").doesNotContain("\"error\"");
  }

  @Test
  void aMissingOrDisagreeingMcpNameIsRefusedOnEveryMethodThatAddressesOneThing() throws Exception {
    assertMismatch(post(ECHO, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call"),
        "Header mismatch: the Mcp-Name header is missing. A 2026-07-28 tools/call over HTTP carries"
            + " params.name there: send Mcp-Name: ops_echo.");
    assertMismatch(post(ECHO, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
            "Mcp-Name", "ops_whoami"),
        "Header mismatch: the Mcp-Name header \"ops_whoami\" does not match params.name \"ops_echo\""
            + " (values are case-sensitive): send Mcp-Name: ops_echo.");

    String prompt = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/get\",\"params\":{\"name\":\"p\"," + META + "}}";
    assertMismatch(post(prompt, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "prompts/get"),
        "Header mismatch: the Mcp-Name header is missing. A 2026-07-28 prompts/get over HTTP carries"
            + " params.name there: send Mcp-Name: p.");
    String read = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":"
        + "{\"uri\":\"docs://readme\"," + META + "}}";
    assertMismatch(post(read, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "resources/read",
            "Mcp-Name", "docs://other"),
        "Header mismatch: the Mcp-Name header \"docs://other\" does not match params.uri"
            + " \"docs://readme\" (values are case-sensitive): send Mcp-Name: docs://readme.");
    // With the right name the request passes the header rules and gets the edge's own answer
    // (this server has no prompts or resources: the method is not found, not a header mismatch).
    HttpResponse<String> served = post(read, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method",
        "resources/read", "Mcp-Name", "docs://readme");
    assertThat(error(served).get("code")).isNotEqualTo(-32020);
  }

  @Test
  void theProtocolVersionHeaderMustBeSentAndAgreeWithTheMeta() throws Exception {
    assertMismatch(post(LIST, "Mcp-Method", "tools/list"),
        "Header mismatch: the MCP-Protocol-Version header is missing. Every 2026-07-28 request over"
            + " HTTP carries the protocol version of its params._meta there: send"
            + " MCP-Protocol-Version: 2026-07-28.");
    String future = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":"
        + "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    assertMismatch(post(future, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"),
        "Header mismatch: the MCP-Protocol-Version header \"2026-07-28\" does not match"
            + " \"io.modelcontextprotocol/protocolVersion\" in params._meta \"2099-01-01\" (values"
            + " are case-sensitive): send MCP-Protocol-Version: 2099-01-01.");
    // A version this server does not speak: its header rules are unknown, so the answer is the
    // list of versions it does speak, not a header mismatch.
    HttpResponse<String> unsupported = post(future, "MCP-Protocol-Version", "2099-01-01");
    assertThat(unsupported.statusCode()).isEqualTo(400);
    assertThat(error(unsupported)).containsEntry("code", -32022);
  }

  @Test
  void theClassicEraNeedsNoneOfTheseHeaders() throws Exception {
    HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
        + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(init.statusCode()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25").statusCode()).isEqualTo(202);
    HttpResponse<String> call = post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"}}}", "Mcp-Session-Id", session,
        "MCP-Protocol-Version", "2025-11-25");
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.body()).contains("\"text\":\"hi\"");
  }
}
