package dev.mcpfusion.core.edge;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.wire.ToolResults;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every JSON-RPC body the framework writes itself: error responses (with {@code "id": null} when
 * no id could be read, which the SDK's types refuse), plain results, and a tool's result in each
 * protocol era, written straight from the pipeline's {@link Reply}. Also the filter that keeps
 * exception text out of the errors the SDK's sessions produce.
 */
public final class Bodies {
  private static final Pattern QUALIFIED_CLASS = Pattern.compile("[a-z]+(\\.[a-z0-9_]+)+\\.[A-Z]\\w*");
  private static final Pattern STACK_FRAME = Pattern.compile("\\bat [\\w$.]+\\(");
  private static final Pattern LEAKY_WORDS = Pattern.compile(
      "Exception|Throwable|stackTrace|className|localizedMessage|suppressed|\\bat java\\.|\\bat dev\\.");

  private Bodies() {}

  /** A JSON-RPC error response. */
  public static byte[] error(Object id, int code, String message) {
    return error(id, code, message, null);
  }

  /** A JSON-RPC error response with {@code data} (a plain JSON tree), omitted when {@code null}. */
  public static byte[] error(Object id, int code, String message, Object data) {
    StringBuilder out = new StringBuilder(96 + message.length());
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    Json.appendValue(id, out);
    out.append(",\"error\":{\"code\":").append(code).append(",\"message\":");
    Json.appendString(message, out);
    if (data != null) {
      out.append(",\"data\":");
      Json.appendValue(data, out);
    }
    out.append("}}");
    return utf8(out);
  }

  /** A JSON-RPC result response; {@code result} is a plain JSON tree. */
  public static byte[] result(Object id, Object result) {
    StringBuilder out = new StringBuilder(64);
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    Json.appendValue(id, out);
    out.append(",\"result\":");
    Json.appendValue(result, out);
    out.append('}');
    return utf8(out);
  }

  /** A JSON-RPC notification; {@code params} (a plain JSON tree) is omitted when {@code null}. */
  public static byte[] notification(String method, Object params) {
    StringBuilder out = new StringBuilder(64);
    out.append("{\"jsonrpc\":\"2.0\",\"method\":");
    Json.appendString(method, out);
    if (params != null) {
      out.append(",\"params\":");
      Json.appendValue(params, out);
    }
    out.append('}');
    return utf8(out);
  }

  /** A JSON-RPC request the server sends the client; {@code params} is a plain JSON tree. */
  public static byte[] request(Object id, String method, Object params) {
    StringBuilder out = new StringBuilder(128);
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    Json.appendValue(id, out);
    out.append(",\"method\":");
    Json.appendString(method, out);
    out.append(",\"params\":");
    Json.appendValue(params, out);
    out.append('}');
    return utf8(out);
  }

  /**
   * A {@code tools/call} response for 2024-11-05 … 2025-11-25 sessions, member for member what the
   * SDK's {@code CallToolResult} writes: {@code content}, {@code isError},
   * {@code structuredContent}, {@code _meta} ({@link ToolResults}).
   */
  static byte[] classicToolResult(Object id, Reply reply) {
    StringBuilder out = start(id);
    ToolResults.appendClassicResult(reply, out);
    out.append('}');
    return utf8(out);
  }

  /**
   * A {@code tools/call} response for 2026-07-28, member for member what the SDK's modern
   * {@code CallToolResult} writes: {@code content}, {@code structuredContent}, {@code isError},
   * {@code resultType}, {@code _meta} (ours, then the server's name and version).
   */
  static byte[] modernToolResult(Object id, Reply reply, String serverInfoMember) {
    StringBuilder out = start(id);
    out.append('{');
    ToolResults.appendContent(reply, out);
    ToolResults.appendStructured(reply, out);
    out.append(",\"isError\":").append(reply.isError());
    out.append(",\"resultType\":\"complete\",\"_meta\":{");
    Map<String, Object> meta = reply.meta();
    if (!meta.isEmpty()) {
      String members = Json.write(meta);
      out.append(members, 1, members.length() - 1).append(',');
    }
    out.append(serverInfoMember).append("}}}");
    return utf8(out);
  }

  /** The {@code io.modelcontextprotocol/serverInfo} member every 2026-07-28 result carries in {@code _meta}. */
  static String serverInfoMember(String name, String version) {
    StringBuilder out = new StringBuilder("\"" + Meta.SERVER_INFO + "\":{\"name\":");
    Json.appendString(name, out);
    out.append(",\"version\":");
    Json.appendString(version, out);
    return out.append('}').toString();
  }

  private static StringBuilder start(Object id) {
    StringBuilder out = builder();
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    Json.appendValue(id, out);
    out.append(",\"result\":");
    return out;
  }

  /**
   * An error response the SDK built, made safe: an internal error always gets the generic text and
   * no data (the SDK puts the raw exception message there); any other message or data that looks
   * like exception text is replaced or dropped.
   *
   * @param data the error's data as a plain JSON tree, or {@code null}
   */
  static byte[] sdkError(Object id, int code, String message, Object data) {
    boolean internal = code == JsonRpc.INTERNAL_ERROR;
    String safe = internal || message == null || leaks(message) ? canonicalMessage(code) : message;
    Object safeData = internal || data == null || leaks(Json.write(data)) ? null : data;
    return error(id, code, safe, safeData);
  }

  /** Whether text carries exception text, a qualified class name or a stack frame. */
  static boolean leaks(String text) {
    return text != null && (QUALIFIED_CLASS.matcher(text).find() || STACK_FRAME.matcher(text).find()
        || LEAKY_WORDS.matcher(text).find());
  }

  /** The message an error with {@code code} gets when its own text cannot be sent. */
  static String canonicalMessage(int code) {
    return switch (code) {
      case JsonRpc.PARSE_ERROR -> "Parse error";
      case JsonRpc.INVALID_REQUEST -> "Invalid Request";
      case JsonRpc.METHOD_NOT_FOUND -> "Method not found";
      case JsonRpc.INVALID_PARAMS -> "Invalid params";
      default -> "Internal error";
    };
  }

  /**
   * This thread's builder for a tool result, emptied. Results are written on the few threads that
   * serve calls, so one builder each (kept unless it grew past 16 KiB) saves allocating and growing
   * one per call.
   */
  private static StringBuilder builder() {
    StringBuilder out = BUILDER.get();
    if (out.capacity() > MAX_KEPT_BUILDER) {
      out = new StringBuilder(1024);
      BUILDER.set(out);
    }
    out.setLength(0);
    return out;
  }

  private static final int MAX_KEPT_BUILDER = 16 * 1024;
  private static final ThreadLocal<StringBuilder> BUILDER =
      ThreadLocal.withInitial(() -> new StringBuilder(1024));

  /** UTF-8 of {@code out}; String's encoder copies ASCII text in bulk, faster than any loop here. */
  private static byte[] utf8(StringBuilder out) {
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }
}
