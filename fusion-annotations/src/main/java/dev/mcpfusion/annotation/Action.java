package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A neutral action: neither read-only nor destructive unless {@link #readOnly()} or
 * {@link #destructive()} says otherwise.
 *
 * <p>The action name is the method name in snake_case ({@code listInvoices} becomes
 * {@code list_invoices}) unless {@link #name()} is set. A result that is a model, a collection of
 * models or a row needs a {@link #presenter()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Action {
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

  /** Overrides the neutral default: the action only reads. */
  boolean readOnly() default false;

  /** Overrides the neutral default: the action destroys or overwrites data. */
  boolean destructive() default false;

  /**
   * Whether this neutral action takes the {@code _select} input of its result view (which must say
   * {@code @Presenter(select = true)}). Field selection is for reading: a {@link Query} presenting
   * such a view takes it without asking, any other verb only when this is {@code true}, so a
   * neutral action's input schema names only what it needs. {@code true} without a selectable result
   * view is a compile error ({@code [fusion/SelectMisuse]}).
   */
  boolean select() default false;
}
