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

  /** A completer of argument {@code argument} of prompt {@code prompt}, by method {@code methodName}. */
  public static CompletionDescriptor forPrompt(String prompt, String argument, String methodName,
      ContextParameter... contextParameters) {
    return new CompletionDescriptor(prompt, "", argument, methodName, List.of(contextParameters));
  }

  /** A completer of variable {@code variable} of the resource template {@code uriTemplate}. */
  public static CompletionDescriptor forResource(String uriTemplate, String variable,
      String methodName, ContextParameter... contextParameters) {
    return new CompletionDescriptor("", uriTemplate, variable, methodName,
        List.of(contextParameters));
  }
}
