package dev.mcpfusion.core.spi;

import java.util.List;

/**
 * One argument of a prompt.
 *
 * @param name the argument name (the parameter name)
 * @param description the {@code @Describe} text, or {@code ""}
 * @param required whether it must be sent (the tool-input rule: {@code @NotNull},
 *     {@code @NotBlank}, {@code @NotEmpty})
 * @param values the accepted values of an enum argument, in declaration order; empty for text
 */
public record PromptArgument(String name, String description, boolean required, List<String> values) {
  public PromptArgument {
    values = List.copyOf(values);
  }

  /** A required text argument ({@code description} may be {@code ""}). */
  public static PromptArgument required(String name, String description) {
    return new PromptArgument(name, description, true, List.of());
  }

  /** An optional text argument ({@code description} may be {@code ""}). */
  public static PromptArgument optional(String name, String description) {
    return new PromptArgument(name, description, false, List.of());
  }

  /** This argument, accepting only {@code values} (an enum's constants, in declaration order). */
  public PromptArgument oneOf(String... values) {
    return new PromptArgument(name, description, required, List.of(values));
  }
}
