package dev.mcpfusion.core.server;

import dev.mcpfusion.wire.Reply;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Converts a {@link Reply} into the MCP result the SDK sends. */
public final class Results {
  private Results() {}

  /**
   * One text content item per block, {@code isError}, {@code structuredContent} and
   * {@code _meta}. {@code content} is never empty: the SDK drops {@code _meta} from a result
   * without content.
   */
  public static McpSchema.CallToolResult toMcp(Reply reply) {
    List<McpSchema.Content> content = new ArrayList<>(reply.blocks().size());
    for (String block : reply.blocks()) {
      content.add(new McpSchema.TextContent(block));
    }
    if (content.isEmpty()) {
      content.add(new McpSchema.TextContent(reply.isError() ? "The tool failed." : "OK"));
    }
    // A reply's maps are already unmodifiable and owned by it: the SDK only reads and writes them.
    Map<String, Object> meta = reply.meta().isEmpty() ? null : reply.meta();
    return new McpSchema.CallToolResult(content, reply.isError(), reply.structuredContent(), meta);
  }
}
