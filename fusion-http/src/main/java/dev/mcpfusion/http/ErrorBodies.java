package dev.mcpfusion.http;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * JSON-RPC error bodies written by the HTTP edge, and the filter that keeps exception text out of
 * the errors the SDK's session produces.
 */
final class ErrorBodies {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  /** Used by MCP servers for "session not found" (no JSON-RPC standard code exists). */
  static final int SESSION_NOT_FOUND = -32001;

  private static final Pattern QUALIFIED_CLASS = Pattern.compile("[a-z]+(\\.[a-z0-9_]+)+\\.[A-Z]\\w*");
  private static final Pattern STACK_FRAME = Pattern.compile("\\bat [\\w$.]+\\(");
  private static final Pattern LEAKY_WORDS = Pattern.compile(
      "Exception|Throwable|stackTrace|className|localizedMessage|suppressed|\\bat java\\.|\\bat dev\\.");

  private ErrorBodies() {}

  /**
   * A JSON-RPC error response as a plain map: the SDK's response type refuses the {@code "id": null}
   * the spec requires when no usable id exists.
   */
  static Map<String, Object> error(Object id, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    response.put("id", id);
    response.put("error", error);
    return response;
  }

  /** The id of a raw message when it is one JSON-RPC allows (string or number), else {@code null}. */
  static Object usableId(Object id) {
    return id instanceof String || id instanceof Number ? id : null;
  }

  /** Whether text carries exception text, a qualified class name or a stack frame. */
  static boolean leaks(String text) {
    return text != null && (QUALIFIED_CLASS.matcher(text).find() || STACK_FRAME.matcher(text).find()
        || LEAKY_WORDS.matcher(text).find());
  }

  /**
   * The session's response with its error (if any) made safe: an internal error always gets the
   * generic text and no data (the SDK puts the raw exception message there); any other message or
   * data that looks like exception text is replaced or dropped.
   */
  static McpSchema.JSONRPCResponse clean(McpSchema.JSONRPCResponse response, String dataJson) {
    McpSchema.JSONRPCResponse.JSONRPCError error = response.error();
    if (error == null) {
      return response;
    }
    int code = error.code() == null ? INTERNAL_ERROR : error.code();
    boolean internal = code == INTERNAL_ERROR;
    String message = internal || error.message() == null || leaks(error.message())
        ? canonicalMessage(code) : error.message();
    Object data = internal || error.data() == null || leaks(dataJson) ? null : error.data();
    if (message.equals(error.message()) && data == error.data() && error.code() != null) {
      return response;
    }
    return new McpSchema.JSONRPCResponse(response.jsonrpc(), response.id(), null,
        new McpSchema.JSONRPCResponse.JSONRPCError(code, message, data));
  }

  static String canonicalMessage(int code) {
    return switch (code) {
      case PARSE_ERROR -> "Parse error";
      case INVALID_REQUEST -> "Invalid Request";
      case METHOD_NOT_FOUND -> "Method not found";
      case INVALID_PARAMS -> "Invalid params";
      default -> "Internal error";
    };
  }
}
