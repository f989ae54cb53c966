package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * One stdio stream, a real SDK client of each era on it at the same time: the classic client
 * (2025-11-25, initialize + session) and the modern client (2026-07-28, no handshake) get the same
 * tools and the same answers from the same pipeline.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BothErasStdioTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private SharedStdio stdio;

  @AfterEach
  void close() throws Exception {
    if (stdio != null) {
      stdio.close();
    }
  }

  private SharedStdio open(Exposition exposition) {
    FusionServer server = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .exposition(exposition)
        .context(Tenant.class, request -> new Tenant("t_777"))
        .build();
    stdio = new SharedStdio(server);
    return stdio;
  }

  /** What an agent sees of a result, as plain JSON trees: the parts both eras must agree on. */
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

  private static List<String> texts(McpSchema.CallToolResult result) {
    List<String> out = new ArrayList<>();
    result.content().forEach(c -> out.add(((McpSchema.TextContent) c).text()));
    return out;
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void bothErasListTheSameTools(Exposition exposition) {
    SharedStdio s = open(exposition);
    List<McpSchema.Tool> classic = s.classic().listTools().tools();
    List<io.modelcontextprotocol.modern.McpSchema.Tool> modern = s.modern().tools().list().tools();
    assertThat(classic).isNotEmpty();
    assertThat(JSON.convertValue(modern, List.class)).isEqualTo(JSON.convertValue(classic, List.class));
  }

  @Test
  void modernCallNeedsNoHandshakeAndMatchesTheClassicSessionOnTheSameStream() {
    SharedStdio s = open(Exposition.FLAT);
    Map<String, Object> args = Map.of("status", "OPEN");

    // The modern client goes first, on a stream where nothing was ever initialized.
    io.modelcontextprotocol.modern.McpSchema.CallToolResult modern =
        s.modern().tool("billing_list_invoices").arguments(args).call();
    assertThat(s.clientLines).noneMatch(line -> line.contains("\"initialize\""));

    McpSchema.CallToolResult classic = s.classic()
        .callTool(new McpSchema.CallToolRequest("billing_list_invoices", args));

    assertThat(classic.isError()).isFalse();
    assertThat(seen(modern)).isEqualTo(seen(classic));
    // Not trivially equal: the call carried data, truncation, rules or suggestions.
    assertThat(classic.structuredContent()).isNotNull();
    assertThat(((Map<?, ?>) seen(classic).get("mcpfusion_meta"))).isNotEmpty();
    // The modern request really was a 2026-07-28 one, on the same stream as the session.
    assertThat(s.clientLines).anyMatch(line -> line.contains("\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"")
        && line.contains("billing_list_invoices"));
    assertThat(s.clientLines).anyMatch(line -> line.contains("\"initialize\""));
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void singleResultAndDomainErrorAreIdenticalInBothEras(Exposition exposition) {
    SharedStdio s = open(exposition);
    String tool = exposition == Exposition.FLAT ? "billing_get_invoice" : "billing";
    for (String id : List.of("INV-0001", "INV-9999")) {
      Map<String, Object> args = new LinkedHashMap<>();
      if (exposition == Exposition.GROUPED) {
        args.put("action", "get_invoice");
      }
      args.put("id", id);
      McpSchema.CallToolResult classic = s.classic()
          .callTool(new McpSchema.CallToolRequest(tool, args));
      io.modelcontextprotocol.modern.McpSchema.CallToolResult modern =
          s.modern().tool(tool).arguments(args).call();
      assertThat(seen(modern)).isEqualTo(seen(classic));
      if (id.equals("INV-9999")) {
        assertThat(classic.isError()).isTrue();
        assertThat(texts(classic).get(0)).startsWith("<tool_error code=\"NOT_FOUND\"");
      } else {
        assertThat(classic.isError()).isFalse();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void aBadArgumentGetsTheSameValidationErrorInBothEras(Exposition exposition) {
    SharedStdio s = open(exposition);
    String tool = exposition == Exposition.FLAT ? "billing_get_invoice" : "billing";
    Map<String, Object> args = new LinkedHashMap<>();
    if (exposition == Exposition.GROUPED) {
      args.put("action", "get_invoice");
    }
    // Violates the schema's pattern: the SDK's modern validator would answer "Invalid arguments".
    args.put("id", "abc");
    McpSchema.CallToolResult classic = s.classic().callTool(new McpSchema.CallToolRequest(tool, args));
    io.modelcontextprotocol.modern.McpSchema.CallToolResult modern =
        s.modern().tool(tool).arguments(args).call();

    assertThat(texts(classic)).containsExactly("<validation_error action=\"billing/get_invoice\">\n"
        + "<field name=\"id\">must match \"INV-\\d+\" You sent: 'abc'. Expected format: INV-\\d+.</field>\n"
        + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        + "</validation_error>");
    assertThat(seen(modern)).isEqualTo(seen(classic));
    assertThat(modern.isError()).isTrue();
  }

  @Test
  void anUnknownToolGetsTheEdgeTextInBothEras() {
    SharedStdio s = open(Exposition.FLAT);
    String expected = "<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n"
        + "<message>The tool \"billing_refund_all\" does not exist.</message>";

    assertThatThrownBy(() -> s.classic().callTool(
        new McpSchema.CallToolRequest("billing_refund_all", Map.of())))
        .isInstanceOf(McpError.class)
        .satisfies(e -> assertThat(((McpError) e).getJsonRpcError().code()).isEqualTo(-32602))
        .satisfies(e -> assertThat(((McpError) e).getJsonRpcError().message()).startsWith(expected));
    String classicText = s.serverLines.get(s.serverLines.size() - 1);

    assertThatThrownBy(() -> s.modern().tool("billing_refund_all").arguments(Map.of()).call())
        .isInstanceOf(McpException.class)
        .satisfies(e -> assertThat(((McpException) e).error().code()).isEqualTo(-32602))
        .satisfies(e -> assertThat(((McpException) e).error().message()).startsWith(expected));
    String modernText = s.serverLines.get(s.serverLines.size() - 1);

    // The same error object (message and data) on the wire, only the id differs.
    @SuppressWarnings("unchecked")
    Map<String, Object> classicError = (Map<String, Object>) JSON.readValue(classicText, Map.class).get("error");
    @SuppressWarnings("unchecked")
    Map<String, Object> modernError = (Map<String, Object>) JSON.readValue(modernText, Map.class).get("error");
    assertThat(modernError).isEqualTo(classicError);
    assertThat(classicError.get("data")).isEqualTo(Map.of("code", "UNKNOWN_TOOL",
        "available", List.of("billing_list_invoices", "billing_get_invoice", "billing_void_invoice")));
  }
}
