package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A read-only action: {@code readOnlyHint: true}, {@code destructiveHint: false}.

 * <p>{@link Invalidates} on a query is a compile error.
 *
 * <p>The action name is the method name in snake_case ({@code listInvoices} becomes
 * {@code list_invoices}) unless {@link #name()} is set. A result that is a model, a collection of
 * models or a row needs a {@link #presenter()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Query {
  /** The action name, {@code [a-z][a-z0-9_]*}; empty means the method name in snake_case. */
  String name() default "";

  /** What the action does; empty falls back to the first sentence of the method's Javadoc. */
  String description() default "";

  /**
   * A short human-readable name for people (the MCP tool {@code title} and the tool annotations'
   * {@code title}), e.g. {@code "List invoices"}; clients show it instead of the tool name. Empty
   * (the default) sends no title. Only FLAT tools carry it: a GROUPED tool is the router's.
   */
  String title() default "";

  /** The view that presents the result; {@code void.class} means none. */
  Class<?> presenter() default void.class;

  /** Whether calling the action twice with the same arguments has the effect of calling it once. */
  boolean idempotent() default false;

  /** Whether the action reaches an open world (the internet) rather than a closed domain. */
  boolean openWorld() default false;
}
