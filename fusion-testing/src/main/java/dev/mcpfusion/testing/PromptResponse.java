package dev.mcpfusion.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The answer to {@code prompts/get} ({@link FusionTester#getPrompt}). */
public final class PromptResponse extends McpResponse {
  PromptResponse(String raw) {
    super(raw);
  }

  /** The result's {@code description}, or {@code null}. */
  public String description() {
    return result() == null || !(result().get("description") instanceof String s) ? null : s;
  }

  /** The messages, each a plain JSON tree ({@code role}, {@code content}); empty for an error. */
  public List<Map<String, Object>> messages() {
    List<Map<String, Object>> out = new ArrayList<>();
    if (result() != null && result().get("messages") instanceof List<?> list) {
      for (Object m : list) {
        if (m instanceof Map<?, ?> map) {
          out.add(McpResponse.tree(map));
        }
      }
    }
    return out;
  }
}
