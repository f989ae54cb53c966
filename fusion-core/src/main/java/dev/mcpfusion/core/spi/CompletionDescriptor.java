package dev.mcpfusion.core.spi;

import java.util.List;

/**
 * One {@code @Complete} method.
 *
 * @param prompt the prompt name it completes, or {@code ""}
 * @param resource the resource URI template it completes, or {@code ""}
 * @param argument the argument or template variable name
 * @param methodName the Java method name
 * @param contextParameters the parameters filled from context, in order
 */
public record CompletionDescriptor(
    String prompt,
    String resource,
    String argument,
    String methodName,
    List<ContextParameter> contextParameters) {

  public CompletionDescriptor {
    contextParameters = List.copyOf(contextParameters);
  }
}
