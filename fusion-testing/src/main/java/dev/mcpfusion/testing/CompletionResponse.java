package dev.mcpfusion.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The answer to {@code completion/complete} ({@link FusionTester#complete}). */
public final class CompletionResponse extends McpResponse {
  CompletionResponse(String raw) {
    super(raw);
  }

  private Map<?, ?> completion() {
    return result() != null && result().get("completion") instanceof Map<?, ?> c ? c : Map.of();
  }

  /** The completion values, in order; empty for an error. */
  public List<String> values() {
    List<String> out = new ArrayList<>();
    if (completion().get("values") instanceof List<?> list) {
      for (Object v : list) {
        out.add(String.valueOf(v));
      }
    }
    return out;
  }

  /** Whether more values exist than were sent. */
  public boolean hasMore() {
    return Boolean.TRUE.equals(completion().get("hasMore"));
  }
}
