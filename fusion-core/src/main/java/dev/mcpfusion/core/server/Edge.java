package dev.mcpfusion.core.server;

import dev.mcpfusion.core.error.ErrorReplies;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The framework's edge in front of the SDK session (DESIGN §6/§9): answers the {@code tools/call}
 * requests the SDK would otherwise answer itself, in our words. Every transport calls it before
 * handing a message to its session.
 */
public final class Edge {
  private final ToolRegistry registry;

  /** An edge over a built registry. */
  public Edge(ToolRegistry registry) {
    this.registry = registry;
  }

  /**
   * The response to {@code message} when the framework answers it itself: a {@code tools/call}
   * of an unknown tool (-32602 with the {@code UNKNOWN_TOOL} text and {@code data}) or with
   * malformed params (-32602); otherwise empty.
   */
  public Optional<McpSchema.JSONRPCResponse> intercept(McpSchema.JSONRPCMessage message) {
    try {
      return answer(message);
    } catch (RuntimeException unexpected) {
      // The edge must never break a transport: let the session answer instead.
      return Optional.empty();
    }
  }

  private Optional<McpSchema.JSONRPCResponse> answer(McpSchema.JSONRPCMessage message) {
    if (!(message instanceof McpSchema.JSONRPCRequest request)
        || !McpSchema.METHOD_TOOLS_CALL.equals(request.method())) {
      return Optional.empty();
    }
    Object params = request.params();
    Object name;
    Object arguments;
    Object meta;
    if (params instanceof McpSchema.CallToolRequest call) {
      name = call.name();
      arguments = call.arguments();
      meta = call.meta();
    } else if (params instanceof Map<?, ?> map) {
      name = map.get("name");
      arguments = map.get("arguments");
      meta = map.get("_meta");
    } else {
      return invalid(request, "Invalid params: tools/call needs an object with the tool \"name\".");
    }
    if (!(name instanceof String toolName)) {
      return invalid(request, name == null
          ? "Invalid params: the field \"name\" is missing; tools/call needs the tool name."
          : "Invalid params: the field \"name\" must be a string.");
    }
    if (arguments != null && !(arguments instanceof Map<?, ?>)) {
      return invalid(request, "Invalid params: the field \"arguments\" must be an object.");
    }
    if (meta != null && !(meta instanceof Map<?, ?>)) {
      return invalid(request, "Invalid params: the field \"_meta\" must be an object.");
    }
    if (registry.tool(toolName) != null) {
      return Optional.empty();
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_TOOL");
    data.put("available", registry.toolNames());
    return Optional.of(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
        new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
            ErrorReplies.unknownToolMessage(toolName, registry.toolNames()), data)));
  }

  private static Optional<McpSchema.JSONRPCResponse> invalid(McpSchema.JSONRPCRequest request,
      String message) {
    return Optional.of(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
        new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, message,
            null)));
  }
}
