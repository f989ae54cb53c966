package dev.mcpfusion.core.edge;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool's {@code tools/list} entry as a plain JSON tree, written without a JSON mapper: the
 * members of the protocol's {@code Tool} in the SDK's order ({@code name}, {@code title},
 * {@code description}, {@code inputSchema}, {@code outputSchema}, {@code annotations},
 * {@code _meta}, {@code icons}), an absent one left out, exactly as the SDK's mapper wrote them.
 */
final class ToolEntries {
  private ToolEntries() {}

  /** The entry of {@code tool}. */
  static Map<String, Object> entry(McpSchema.Tool tool) {
    Map<String, Object> entry = new LinkedHashMap<>();
    put(entry, "name", tool.name());
    put(entry, "title", tool.title());
    put(entry, "description", tool.description());
    put(entry, "inputSchema", tool.inputSchema());
    put(entry, "outputSchema", tool.outputSchema());
    McpSchema.ToolAnnotations annotations = tool.annotations();
    if (annotations != null) {
      Map<String, Object> hints = new LinkedHashMap<>();
      put(hints, "title", annotations.title());
      put(hints, "readOnlyHint", annotations.readOnlyHint());
      put(hints, "destructiveHint", annotations.destructiveHint());
      put(hints, "idempotentHint", annotations.idempotentHint());
      put(hints, "openWorldHint", annotations.openWorldHint());
      put(hints, "returnDirect", annotations.returnDirect());
      entry.put("annotations", hints);
    }
    put(entry, "_meta", tool.meta());
    if (tool.icons() != null) {
      List<Object> icons = new ArrayList<>();
      for (McpSchema.Icon icon : tool.icons()) {
        Map<String, Object> i = new LinkedHashMap<>();
        put(i, "src", icon.src());
        put(i, "mimeType", icon.mimeType());
        put(i, "sizes", icon.sizes());
        put(i, "theme", icon.theme());
        icons.add(i);
      }
      entry.put("icons", icons);
    }
    return entry;
  }

  private static void put(Map<String, Object> map, String key, Object value) {
    if (value != null) {
      map.put(key, value);
    }
  }
}
