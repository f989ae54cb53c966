package dev.mcpfusion.core;

import java.util.Map;
import java.util.Objects;

/**
 * What one {@code completion/complete} request asks: the argument (or template variable) being
 * completed, the text typed so far, and the arguments the client has already resolved (its
 * {@code context.arguments}: the other values of the same prompt or URI template, filled in
 * earlier). A {@code @Complete} method receives it as a {@code @Context CompletionContext}
 * parameter, to offer candidates that depend on the rest:
 *
 * <pre>{@code
 * @Complete(resource = "docs://pages/{page}/sections/{section}", argument = "section")
 * List<String> sections(String prefix, @Context CompletionContext completion) {
 *   return sectionsOf(completion.arguments().get("page"), prefix);
 * }
 * }</pre>
 *
 * Only completions get it: a prompt, resource or tool that asks for it fails {@code build()}
 * ({@code [fusion/ContextNotProvided]}).
 *
 * @param argument the name of the argument or variable being completed
 * @param value the text typed so far ({@code ""} when none)
 * @param arguments the values the client already resolved, by name; empty when it sent none
 */
public record CompletionContext(String argument, String value, Map<String, String> arguments) {

  public CompletionContext {
    Objects.requireNonNull(argument, "argument");
    Objects.requireNonNull(value, "value");
    arguments = Map.copyOf(arguments);
  }
}
