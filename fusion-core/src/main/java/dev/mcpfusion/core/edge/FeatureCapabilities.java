package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.json.Json;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
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
      // The SDK's modern server resets resources.subscribe unless its own change publisher serves
      // subscriptions/listen (and that publisher would advertise list changes this server never
      // sends); the edge serves listen (ListenStreams), so subscribable() sets it in the answer.
      builder.resources(false, false);
    }
    builder.completions();
  }

  /**
   * A {@code server/discover} response with {@code capabilities.resources.subscribe: true}: what
   * the edge's {@code subscriptions/listen} streams serve, in every transport.
   */
  @SuppressWarnings("unchecked")
  static byte[] subscribable(byte[] discover) {
    Object tree = Json.parse(new String(discover, StandardCharsets.UTF_8));
    if (tree instanceof Map<?, ?> response && response.get("result") instanceof Map<?, ?> result
        && result.get("capabilities") instanceof Map<?, ?> capabilities
        && capabilities.get("resources") instanceof Map<?, ?> resources) {
      ((Map<String, Object>) resources).put("subscribe", true);
      return Json.write(tree).getBytes(StandardCharsets.UTF_8);
    }
    return discover;
  }
}
