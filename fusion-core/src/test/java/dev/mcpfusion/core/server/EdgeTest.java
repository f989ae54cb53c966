package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EdgeTest {
  private final FusionServer server = Servers.billing(Exposition.FLAT).build();

  private static McpSchema.JSONRPCRequest call(Object params) {
    return new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_TOOLS_CALL, 7, params);
  }

  @Test
  void unknownToolIsInvalidParamsWithTheToolErrorText() {
    Optional<McpSchema.JSONRPCResponse> response =
        server.intercept(call(Map.of("name", "billing.refund", "arguments", Map.of())));
    assertThat(response).isPresent();
    McpSchema.JSONRPCResponse.JSONRPCError error = response.get().error();
    assertThat(response.get().id()).isEqualTo(7);
    assertThat(response.get().result()).isNull();
    assertThat(error.code()).isEqualTo(-32602);
    assertThat(error.message()).isEqualTo("""
        <tool_error code="UNKNOWN_TOOL" severity="error">
        <message>The tool "billing.refund" does not exist.</message>
        <recovery>Choose one of the available tools and call it again.</recovery>
        <available_tools>
          <tool>billing_list_invoices</tool>
          <tool>billing_get_invoice</tool>
          <tool>billing_void_invoice</tool>
        </available_tools>
        </tool_error>""");
    assertThat(error.data()).isEqualTo(Map.of("code", "UNKNOWN_TOOL", "available",
        List.of("billing_list_invoices", "billing_get_invoice", "billing_void_invoice")));
  }

  @Test
  void knownToolsAndOtherMessagesPassThrough() {
    assertThat(server.intercept(call(Map.of("name", "billing_get_invoice")))).isEmpty();
    assertThat(server.intercept(call(new McpSchema.CallToolRequest("billing_get_invoice", Map.of()))))
        .isEmpty();
    assertThat(server.intercept(new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION,
        McpSchema.METHOD_TOOLS_LIST, 1, Map.of()))).isEmpty();
    assertThat(server.intercept(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
        McpSchema.METHOD_NOTIFICATION_INITIALIZED, null))).isEmpty();
  }

  @Test
  void malformedParamsAreInvalidParamsWithAClearMessage() {
    assertThat(server.intercept(call(null)).orElseThrow().error())
        .isEqualTo(new McpSchema.JSONRPCResponse.JSONRPCError(-32602,
            "Invalid params: tools/call needs an object with the tool \"name\".", null));
    assertThat(server.intercept(call(List.of("x"))).orElseThrow().error().code()).isEqualTo(-32602);
    assertThat(server.intercept(call(Map.of("arguments", Map.of()))).orElseThrow().error().message())
        .isEqualTo("Invalid params: the field \"name\" is missing; tools/call needs the tool name.");
    assertThat(server.intercept(call(Map.of("name", 5))).orElseThrow().error().message())
        .isEqualTo("Invalid params: the field \"name\" must be a string.");
    assertThat(server.intercept(call(Map.of("name", "billing_get_invoice", "arguments", "id=1")))
        .orElseThrow().error().message())
        .isEqualTo("Invalid params: the field \"arguments\" must be an object.");
  }
}
