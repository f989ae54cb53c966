package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.McpJson;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The 2025 lifecycle the edge answers itself ({@link ClassicEra}): {@code initialize}, the
 * capabilities, {@code tools/list}, {@code logging/setLevel} and "method not found" are the bytes
 * the MCP Java SDK's classic server wrote, and serving a classic stdio session loads neither the
 * SDK's server, nor Reactor, nor a JSON-schema validator, nor Jackson's databind.
 */
class ClassicLifecycleTest {
  private final FusionServer server = FusionServer.builder("billing", "1.0.0")
      .register(new BillingTools())
      .context(Tenant.class, request -> new Tenant("t_1"))
      .build();
  private final Edge edge = server.edge();
  private final EdgeTest.Wire wire = new EdgeTest.Wire();
  private final EdgeSession session = edge.openSession(wire);
  private int ids = 1;

  @AfterEach
  void close() {
    session.close();
    edge.close();
  }

  private String request(String method, String params) {
    int id = ids++;
    edge.receive("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
        + (params == null ? "" : ",\"params\":" + params) + "}", Inbound.stdio(), session);
    return written(id);
  }

  /** The exact text of the reply to {@code id}. */
  private String written(int id) {
    wire.reply(id);
    String prefix = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",";
    return wire.written.stream().filter(w -> w.startsWith(prefix)).findFirst().orElseThrow();
  }

  private static String initializeParams(String version) {
    return "{\"protocolVersion\":" + (version == null ? "null" : "\"" + version + "\"")
        + ",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}";
  }

  private void handshake() {
    request(JsonRpc.INITIALIZE, initializeParams(ProtocolVersions.LATEST_CLASSIC));
    edge.receive("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", Inbound.stdio(), session);
  }

  @Test
  void initializeAnswersTheVersionAskedForWhenSpokenElseTheNewest() {
    for (String version : ProtocolVersions.CLASSIC) {
      assertThat(request(JsonRpc.INITIALIZE, initializeParams(version)))
          .contains("\"protocolVersion\":\"" + version + "\"");
    }
    for (String other : new String[] {"2099-01-01", ProtocolVersions.MODERN, null}) {
      assertThat(request(JsonRpc.INITIALIZE, initializeParams(other)))
          .contains("\"protocolVersion\":\"" + ProtocolVersions.LATEST_CLASSIC + "\"");
    }
    assertThat(session.protocolVersion()).isEqualTo(ProtocolVersions.LATEST_CLASSIC);
  }

  @Test
  void initializeIsWhatTheSdkServerAnsweredForTheSameServer() throws Exception {
    String ours = request(JsonRpc.INITIALIZE, initializeParams("2025-06-18"));
    // The SDK's classic server answered with these capabilities (tools without list changes,
    // logging) for a server with tools only, and serverInfo's name and version.
    McpSchema.InitializeResult sdk = new McpSchema.InitializeResult("2025-06-18",
        McpSchema.ServerCapabilities.builder().tools(false).logging().build(),
        new McpSchema.Implementation("billing", "1.0.0"), null);
    McpJsonMapper mapper = McpJson.newMapper();
    assertThat(ours).isEqualTo(mapper.writeValueAsString(
        new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, sdk, null)));
  }

  @Test
  void toolsListIsEveryToolAsTheSdkWroteIt() throws Exception {
    handshake();
    String ours = request(JsonRpc.TOOLS_LIST, "{}");
    McpJsonMapper mapper = McpJson.newMapper();
    String sdk = mapper.writeValueAsString(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION,
        2, new McpSchema.ListToolsResult(edge.tools(), null), null));
    assertThat(edge.tools()).hasSize(3);
    assertThat(ours).isEqualTo(sdk);
  }

  @Test
  void aToolWithEveryMemberIsWrittenAsTheSdkWritesIt() throws Exception {
    McpSchema.Tool tool = McpSchema.Tool.builder()
        .name("t").title("T").description("d")
        .inputSchema(Map.of("type", "object"))
        .outputSchema(Map.of("type", "object"))
        .annotations(new McpSchema.ToolAnnotations("A", true, false, true, false, true))
        .meta(Map.of("k", "v"))
        .icons(List.of(new McpSchema.Icon("https://x/i.png", "image/png", List.of("48x48"), null)))
        .build();
    McpJsonMapper mapper = McpJson.newMapper();
    assertThat(dev.mcpfusion.json.Json.write(ToolEntries.entry(tool)))
        .isEqualTo(mapper.writeValueAsString(tool));
  }

  @Test
  void initializeWithUnreadableParamsIsInvalidParamsNamingWhatIsWrong() {
    assertThat(request(JsonRpc.INITIALIZE, null)).contains("\"code\":-32602")
        .contains("initialize needs params, an object");
    assertThat(request(JsonRpc.INITIALIZE, "[1]")).contains("\"code\":-32602");
    assertThat(request(JsonRpc.INITIALIZE, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":\"x\"}"))
        .contains("\"code\":-32602").contains("\\\"capabilities\\\" of initialize must be an object");
    assertThat(request(JsonRpc.INITIALIZE, "{\"protocolVersion\":\"2025-06-18\",\"clientInfo\":7}"))
        .contains("\\\"clientInfo\\\" of initialize must be an object");
  }

  @Test
  void setLevelAnswersAnEmptyResultAndAnUnknownMethodIsMethodNotFound() {
    handshake();
    assertThat(request(JsonRpc.LOGGING_SET_LEVEL, "{\"level\":\"debug\"}"))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    assertThat(session.logLevel()).isEqualTo(dev.mcpfusion.core.LogLevel.DEBUG);
    assertThat(request("foo/bar", "{}")).isEqualTo(
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"Method not found: foo/bar\"}}");
  }

  @Test
  void aRequestAfterInitializeWithoutInitializedIsServedAndNotificationsAskNothing() {
    request(JsonRpc.INITIALIZE, initializeParams("2025-06-18"));
    assertThat(request(JsonRpc.TOOLS_LIST, null)).contains("\"tools\":[");
    int before = wire.written.size();
    edge.receive("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}", Inbound.stdio(), session);
    edge.receive("{\"jsonrpc\":\"2.0\",\"id\":\"nobody\",\"result\":{}}", Inbound.stdio(), session);
    assertThat(wire.written).hasSize(before);
  }

  /**
   * A child JVM serves the fixture over stdio with the class-load log on; a 2025 session
   * (initialize, initialized, tools/list, one call, logging/setLevel) must load none of the SDK's
   * server, Reactor, a JSON-schema validator or Jackson's databind (messages are read by the
   * streaming parser, replies written by {@code dev.mcpfusion.json.Json}).
   */
  @Test
  void aClassicStdioSessionLoadsNoSdkServerReactorSchemaValidatorOrDatabind() throws Exception {
    Path log = Files.createTempFile("classic-classes-", ".log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "-Xlog:disable", "-Xlog:all=warning:stderr",
        "-Xlog:class+load=info:file=" + log, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), StdioFixture.class.getName())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    List<String> replies = new ArrayList<>();
    try (OutputStream in = process.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
      String[] messages = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":" + initializeParams("2025-06-18") + "}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"billing_get_invoice\","
            + "\"arguments\":{\"id\":\"INV-0001\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}",
      };
      for (String message : messages) {
        in.write((message + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        if (message.contains("\"id\"")) {
          replies.add(out.readLine());
        }
      }
    } finally {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
    assertThat(replies).hasSize(4).allSatisfy(r -> assertThat(r).contains("\"result\""));
    List<String> loaded = Files.readAllLines(log);
    Files.deleteIfExists(log);
    // The log is real: the edge's classes are in it.
    assertThat(loaded).anyMatch(l -> l.contains(" " + ClassicEra.class.getName() + " "));
    assertThat(loaded).noneMatch(l -> l.contains(" io.modelcontextprotocol.server.")
        || l.contains(" io.modelcontextprotocol.modern.") || l.contains(" reactor.core.")
        || l.contains(" io.modelcontextprotocol.json.schema.") || l.contains(" com.networknt.")
        || l.contains(" tools.jackson.databind."));
  }

  /** The fixture's server on stdio, for the class-loading test's child JVM. */
  static final class StdioFixture {
    public static void main(String[] args) throws Exception {
      FusionServer.builder("billing", "1.0.0")
          .register(new BillingTools())
          .context(Tenant.class, request -> new Tenant("t_1"))
          .build()
          .serveStdio();
    }
  }
}
