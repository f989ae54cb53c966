package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Completes one argument of a prompt or one variable of a resource template
 * ({@code completion/complete}): {@code @Complete(prompt = "overdue", argument = "customer")} or
 * {@code @Complete(resource = "billing://invoices/{id}", argument = "id")}. The target is declared
 * in the same class; exactly one of {@link #prompt()} and {@link #resource()} is set.
 *
 * <p>The method takes the text typed so far as its one {@code String} parameter (plus
 * {@link Context} parameters) and returns a {@code List<String>} of candidates; the first 100 are
 * sent. An enum argument without a {@code @Complete} method completes from its constants.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Complete {
  /** The prompt name whose argument this completes; empty when completing a resource. */
  String prompt() default "";

  /** The resource URI template whose variable this completes; empty when completing a prompt. */
  String resource() default "";

  /** The argument (or template variable) name. */
  String argument();
}
