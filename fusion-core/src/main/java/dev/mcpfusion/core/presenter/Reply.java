package dev.mcpfusion.core.presenter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@code tools/call} answers, before it becomes an MCP result: the text blocks in wire
 * order, the {@code structuredContent}, the {@code mcpfusion/*} {@code _meta} entries and whether it
 * is an error.
 *
 * @param blocks the text content items, in order (never empty)
 * @param structuredContent the plain JSON tree sent as {@code structuredContent}; {@code null} on errors
 * @param meta the {@code mcpfusion/*} entries, in insertion order
 * @param isError whether the result is an error ({@code isError: true})
 */
public record Reply(
    List<String> blocks, Map<String, Object> structuredContent, Map<String, Object> meta,
    boolean isError) {

  public Reply {
    blocks = List.copyOf(blocks);
    structuredContent = structuredContent == null
        ? null
        : Collections.unmodifiableMap(new LinkedHashMap<>(structuredContent));
    meta = meta == null
        ? Map.of()
        : Collections.unmodifiableMap(new LinkedHashMap<>(meta));
  }

  /** All blocks joined with blank lines, for logs and tests. */
  public String text() {
    return String.join("\n\n", blocks);
  }
}
