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
 * the exposed {@link Describe}d properties. On a {@code static} method of the presenter that takes
 * the view and returns {@code List<String>} (or {@code String}): rules that depend on the data,
 * evaluated per shown item and deduplicated in first-seen order.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Rules {
  /** The rule lines (on a type). Ignored on a method. */
  String[] value() default {};
}
