package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.FusionServer;

/**
 * Adjusts the {@link FusionServer.Builder} the starter assembles, after it registered the router
 * beans, context providers, middleware beans and properties and before {@code build()}; for what
 * beans alone cannot say, such as server-wide middleware:
 *
 * <pre>{@code
 * @Bean
 * FusionServerCustomizer audit(AuditMiddleware audit) {
 *   return builder -> builder.middleware(audit);      // around every action, before @Use ones
 * }
 * }</pre>
 *
 * <p>Customizers run in {@code @Order} / {@code Ordered} order.
 */
@FunctionalInterface
public interface FusionServerCustomizer {
  /** Changes the builder in place. */
  void customize(FusionServer.Builder builder);
}
