package dev.mcpfusion.core.spi;

import java.util.List;

/**
 * The prompts, resources and completions of one class, as the processor saw them.
 *
 * @param router the {@code @Router} name of the class, or {@code ""} when it is not a router; a
 *     mutation whose {@code @Invalidates} pattern matches it marks the class's resources updated
 * @param type the user's class
 * @param prompts the prompts, in source order
 * @param resources the resources and resource templates, in source order
 * @param completions the completions, in source order
 * @param middleware the class-level {@code @Use} classes, in order
 */
public record FeaturesDescriptor(
    String router,
    Class<?> type,
    List<PromptDescriptor> prompts,
    List<ResourceDescriptor> resources,
    List<CompletionDescriptor> completions,
    List<Class<?>> middleware) {

  public FeaturesDescriptor {
    prompts = List.copyOf(prompts);
    resources = List.copyOf(resources);
    completions = List.copyOf(completions);
    middleware = List.copyOf(middleware);
  }
}
