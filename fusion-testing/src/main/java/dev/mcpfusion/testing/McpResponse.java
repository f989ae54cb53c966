package dev.mcpfusion.testing;

import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One JSON-RPC answer to a prompt, resource or completion request, as the client received it:
 * either a result ({@link #result()}) or an error ({@link #errorCode()}, {@link #errorMessage()},
 * {@link #errorData()}). {@link PromptResponse}, {@link ResourceResponse} and
 * {@link CompletionResponse} read the result of their method.
 */
public class McpResponse {
  private final String raw;
  private final Map<String, Object> result;
  private final Map<?, ?> error;

  McpResponse(String raw) {
    this.raw = raw;
    Object tree = Json.parse(raw);
    Map<?, ?> message = tree instanceof Map<?, ?> m ? m : Map.of();
    this.result = message.get("result") instanceof Map<?, ?> r ? tree(r) : null;
    this.error = message.get("error") instanceof Map<?, ?> e ? e : null;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> tree(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  /** The JSON text of the whole JSON-RPC response. */
  public String raw() {
    return raw;
  }

  /** Whether the server answered with a JSON-RPC error. */
  public boolean isError() {
    return error != null;
  }

  /** The result as a plain JSON tree, or {@code null} for an error. */
  public Map<String, Object> result() {
    return result;
  }

  /** The JSON-RPC error code, or {@code 0} for a result. */
  public int errorCode() {
    return error != null && error.get("code") instanceof Number n ? n.intValue() : 0;
  }

  /** The JSON-RPC error message, or {@code null} for a result. */
  public String errorMessage() {
    return error == null ? null : String.valueOf(error.get("message"));
  }

  /** The JSON-RPC error's {@code data}, or {@code null}. */
  public Object errorData() {
    return error == null ? null : error.get("data");
  }

  /** Every text the client reads in the result (message texts, resource texts), in order. */
  public List<String> texts() {
    List<String> out = new ArrayList<>();
    collectTexts(result, out);
    return out;
  }

  private static void collectTexts(Object node, List<String> out) {
    if (node instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if ("text".equals(e.getKey()) && e.getValue() instanceof String s) {
          out.add(s);
        } else {
          collectTexts(e.getValue(), out);
        }
      }
    } else if (node instanceof List<?> list) {
      for (Object item : list) {
        collectTexts(item, out);
      }
    }
  }

  @Override
  public String toString() {
    return raw;
  }
}
