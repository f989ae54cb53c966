package dev.mcpfusion.core.edge;

import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import reactor.core.publisher.Mono;

/**
 * Tells the 2026-07-28 server's {@code server/discover} which extensions this server speaks
 * (under {@code capabilities.extensions}, each with no settings). It answers no method: the edge
 * answers the extensions' requests itself.
 */
final class ExtensionCapabilities implements McpFeature {
  private final Set<String> extensions;

  ExtensionCapabilities(Set<String> extensions) {
    this.extensions = new TreeSet<>(extensions);
  }

  @Override
  public Set<String> methods() {
    return Set.of();
  }

  @Override
  public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(
      McpRequestContext context, Object params) {
    return Mono.error(new IllegalStateException("the edge answers the extensions' requests"));
  }

  @Override
  public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
    for (String extension : extensions) {
      builder.extension(extension, Map.of());
    }
  }
}
