package dev.mcpfusion.core.server;

import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.json.Json;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.ToolCallTrace;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The framework's edge in front of the SDK session (DESIGN §6/§9): answers the {@code tools/call}
 * requests the SDK would otherwise answer itself, in our words. Every transport calls it before
 * handing a message to its session.
 *
 * <p>An unknown tool never reaches the pipeline, so its trace span (DESIGN §7: unknown tools
 * included) is recorded here.
 */
public final class Edge {
  private final ToolRegistry registry;
  private final FusionTracer tracer;

  /** An edge over a built registry, without tracing. */
  public Edge(ToolRegistry registry) {
    this(registry, FusionTracer.NOOP);
  }

  /** An edge over a built registry that records a span for every unknown tool it answers. */
  public Edge(ToolRegistry registry, FusionTracer tracer) {
    this.registry = registry;
    this.tracer = tracer == null ? FusionTracer.NOOP : tracer;
  }

  /**
   * The response to {@code message} when the framework answers it itself: a {@code tools/call}
   * of an unknown tool (-32602 with the {@code UNKNOWN_TOOL} text and {@code data}) or with
   * malformed params (-32602); otherwise empty.
   */
  public Optional<McpSchema.JSONRPCResponse> intercept(McpSchema.JSONRPCMessage message) {
    return intercept(message, Map.of());
  }

  /**
   * As {@link #intercept(McpSchema.JSONRPCMessage)}, for a transport with request headers (HTTP):
   * they can carry the W3C trace parent of an unknown tool's span.
   */
  public Optional<McpSchema.JSONRPCResponse> intercept(McpSchema.JSONRPCMessage message,
      Map<String, String> headers) {
    try {
      return answer(message, headers);
    } catch (RuntimeException unexpected) {
      // The edge must never break a transport: let the session answer instead.
      return Optional.empty();
    }
  }

  private Optional<McpSchema.JSONRPCResponse> answer(McpSchema.JSONRPCMessage message,
      Map<String, String> headers) {
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
    Map<String, Object> data = unknownToolData();
    String text = ErrorReplies.unknownToolMessage(toolName, registry.toolNames());
    if (tracer != FusionTracer.NOOP) {
      Map<String, Object> requestMeta = new LinkedHashMap<>();
      if (meta instanceof Map<?, ?> m) {
        m.forEach((k, v) -> requestMeta.put(String.valueOf(k), v));
      }
      traceUnknownTool(toolName, RequestContext.of(headers, requestMeta, null, null), text, data);
    }
    return Optional.of(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
        new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, text,
            data)));
  }

  /**
   * Records the span of a call of the unknown tool {@code toolName} (for callers that answer it
   * without a JSON-RPC message, such as the in-memory {@code FusionServer.call}).
   */
  public void traceUnknownTool(String toolName, RequestContext request) {
    if (tracer != FusionTracer.NOOP) {
      traceUnknownTool(toolName, request,
          ErrorReplies.unknownToolMessage(toolName, registry.toolNames()), unknownToolData());
    }
  }

  private void traceUnknownTool(String toolName, RequestContext request, String text,
      Map<String, Object> data) {
    ToolCallTrace trace = ToolCallTrace.start(tracer, toolName, registry.exposition(), null, null,
        request);
    long bytes = ToolCallTrace.utf8Length(text) + ToolCallTrace.utf8Length(Json.write(data));
    trace.finishError("UNKNOWN_TOOL", "The tool \"" + toolName + "\" does not exist.", bytes);
  }

  private Map<String, Object> unknownToolData() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_TOOL");
    data.put("available", registry.toolNames());
    return data;
  }

  private static Optional<McpSchema.JSONRPCResponse> invalid(McpSchema.JSONRPCRequest request,
      String message) {
    return Optional.of(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
        new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, message,
            null)));
  }
}
