package dev.mcpfusion.testing;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The answer to {@code resources/read} ({@link FusionTester#readResource}). */
public final class ResourceResponse extends McpResponse {
  ResourceResponse(String raw) {
    super(raw);
  }

  /** The {@code contents}, each a plain JSON tree; empty for an error. */
  public List<Map<String, Object>> contents() {
    List<Map<String, Object>> out = new ArrayList<>();
    if (result() != null && result().get("contents") instanceof List<?> list) {
      for (Object c : list) {
        if (c instanceof Map<?, ?> map) {
          out.add(McpResponse.tree(map));
        }
      }
    }
    return out;
  }

  /** The first content's {@code text}, or {@code null}. */
  public String text() {
    List<Map<String, Object>> contents = contents();
    return contents.isEmpty() || !(contents.get(0).get("text") instanceof String s) ? null : s;
  }

  /** The first content's {@code blob}, decoded, or {@code null}. */
  public byte[] blob() {
    List<Map<String, Object>> contents = contents();
    return contents.isEmpty() || !(contents.get(0).get("blob") instanceof String s) ? null
        : Base64.getDecoder().decode(s);
  }

  /** The first content's {@code mimeType}, or {@code null}. */
  public String mimeType() {
    List<Map<String, Object>> contents = contents();
    return contents.isEmpty() || !(contents.get(0).get("mimeType") instanceof String s) ? null : s;
  }
}
