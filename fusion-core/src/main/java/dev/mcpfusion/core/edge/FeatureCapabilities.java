package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.server.FeatureRegistry;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * Tells the 2026-07-28 server's {@code server/discover} that this server has prompts, resources
 * and completions. It answers no method: the edge answers those requests itself before they
 * could reach the SDK, exactly as in the classic era.
 */
final class FeatureCapabilities implements McpFeature {
  private final FeatureRegistry features;

  FeatureCapabilities(FeatureRegistry features) {
    this.features = features;
  }

  @Override
  public Set<String> methods() {
    return Set.of();
  }

  @Override
  public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(
      McpRequestContext context, Object params) {
    return Mono.error(new IllegalStateException("the edge answers prompts, resources and completions"));
  }

  @Override
  public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
    if (features.hasPrompts()) {
      builder.prompts(false);
    }
    if (features.hasResources()) {
      // resources.subscribe stays false: the SDK's modern server resets it unless its own change
      // publisher serves subscriptions/listen, and here the edge serves it (ListenStreams).
      builder.resources(false, false);
    }
    builder.completions();
  }
}
