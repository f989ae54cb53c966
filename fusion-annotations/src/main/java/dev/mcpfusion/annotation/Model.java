package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type (usually a record) as a domain model: the data a connector works with, some of which
 * may never leave the process.
 *
 * <p>A model is never written to an agent directly. A {@link Presenter} declares which of its
 * properties may leave; {@link Hidden} properties can never be exposed, and the processor rejects a
 * presenter that tries ({@code [fusion/HiddenFieldExposed]}).
 *
 * <pre>{@code
 * @Model(description = "A customer invoice")
 * public record Invoice(@Describe("Invoice ID, e.g. INV-0042") String id,
 *                       @Hidden String webhookSecret) {}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Model {
  /** What the model is, for humans and for generated schemas. */
  String description() default "";
}
