package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes a model property, a tool input or a record component for the agent.
 *
 * <p>On a model property it becomes the {@code description} of the JSON Schema and, for every
 * property a presenter exposes, a line {@code name: description} in the {@code <domain_rules>} block
 * the agent receives with the data (set {@link #rule()} to {@code false} to keep it in the schema
 * only). On a tool parameter or an input record component it becomes the input schema description.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER,
    ElementType.TYPE})
public @interface Describe {
  /** The description text. */
  String value();

  /** Whether an exposed property's description also becomes a {@code <domain_rules>} line. */
  boolean rule() default true;
}
