package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link Model} property that an agent may fill through the named input profiles, such as
 * {@code @Fillable({"create", "update"})}. A parameter {@code @Input(profile = "create") Invoice
 * draft} then takes exactly the properties fillable in {@code "create"} from the agent, with their
 * {@link Describe} text and jakarta constraints, and the generated code builds the model from them.
 *
 * <p>Put it where the processor reads a model property: on a record component, or on a class's
 * getter or field (not on a setter). A property that is {@link Hidden} or {@link Guarded} can never be fillable
 * ({@code [fusion/FillableNotAccepted]}). Profile names are free text; a parameter naming a profile
 * no property declares fails with {@code [fusion/UnknownProfile]}, which lists the profiles the model
 * declares.
 *
 * @see Input
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.METHOD})
public @interface Fillable {
  /** The profiles in which the agent may fill this property, e.g. {@code {"create", "update"}}. */
  String[] value();
}
