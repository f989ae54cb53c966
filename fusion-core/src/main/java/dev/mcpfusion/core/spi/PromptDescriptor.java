package dev.mcpfusion.core.spi;

import java.util.List;

/**
 * One {@code @Prompt} method.
 *
 * @param name the prompt name, unique across the server
 * @param methodName the Java method name
 * @param title the MCP title, or {@code ""}
 * @param description the resolved description (never empty)
 * @param arguments the arguments, in parameter order
 * @param contextParameters the parameters filled from context, in order
 * @param presenter the presenter of the prompt's data, or {@code null}
 * @param middleware the method-level {@code @Use} classes, in order
 */
public record PromptDescriptor(
    String name,
    String methodName,
    String title,
    String description,
    List<PromptArgument> arguments,
    List<ContextParameter> contextParameters,
    PresenterBinding<?, ?> presenter,
    List<Class<?>> middleware) {

  public PromptDescriptor {
    arguments = List.copyOf(arguments);
    contextParameters = List.copyOf(contextParameters);
    middleware = List.copyOf(middleware);
  }
}
