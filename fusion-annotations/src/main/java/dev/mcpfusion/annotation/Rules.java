package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Domain rules sent to the agent in {@code <domain_rules>} with every result of a presenter.
 *
 * <p>On a {@link Presenter} type: static lines, sent after the {@code name: description} lines of
 * the exposed {@link Describe}d properties. On a {@code static} method of the presenter that returns
 * {@code List<String>} (or {@code String}): rules that depend on the data. A method taking the view
 * runs once per distinct shown view; a method taking {@code List} of the view runs once on all shown
 * items (a view may have one of each). Lines are deduplicated in first-seen order: the per-view
 * ones, then the collection's. A nested view's rule methods run on the nested views of every shown
 * item, before the outer view's.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Rules {
  /** The rule lines (on a type). Ignored on a method. */
  String[] value() default {};
}
