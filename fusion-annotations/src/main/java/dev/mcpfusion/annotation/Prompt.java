package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An MCP prompt: a message template the client offers its user ({@code prompts/list},
 * {@code prompts/get}).
 *
 * <p>The method's parameters are the prompt's arguments (their names as written, {@link Describe}
 * for the description); an argument is required only if it carries {@code @NotNull},
 * {@code @NotBlank} or {@code @NotEmpty}, exactly as a tool input, so an {@code Optional<String>}
 * or a plain {@code String} is optional on the wire. Arguments are strings (or enums, sent by
 * name); {@link Context} parameters are filled from the request as for tools. The method returns
 * a {@code PromptResult} or a {@code String} (one user message).
 *
 * <p>With a {@link #presenter()}, the data a {@code PromptResult} carries goes through the same
 * strip, limit and rules step as a tool result: the stripped data becomes user content and the
 * presenter's rules the guidance; no {@link Hidden} value can leave.
 *
 * <p>The prompt name is the method name in snake_case unless {@link #name()} is set; it is unique
 * across the server.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Prompt {
  /** The prompt name, {@code [a-zA-Z0-9_-]+}; empty means the method name in snake_case. */
  String name() default "";

  /** A human-readable title (MCP {@code title}); empty means none. */
  String title() default "";

  /** What the prompt is for; empty falls back to the first sentence of the method's Javadoc. */
  String description() default "";

  /** The view that presents the prompt's data; {@code void.class} means none. */
  Class<?> presenter() default void.class;
}
