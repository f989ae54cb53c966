package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Takes a {@link Model} from the agent through one of its {@link Fillable} profiles:
 * {@code @Mutation(...) Invoice createInvoice(@Input(profile = "create") Invoice draft)}.
 *
 * <p>The parameter is one nested object under its name (like any record parameter) whose properties
 * are exactly the model properties fillable in the profile. In the profile {@code "create"} a
 * property is required unless it is {@code Optional} or {@code @Nullable}; in every other profile
 * (such as {@code "update"} or {@code "filter"}) all properties are optional, and the object itself
 * may be left out. Any other key, a {@link Hidden} or {@link Guarded} property included, is a
 * validation error. The handler receives a model built from what was sent: a record through its
 * canonical constructor (a property that was not sent is {@code null}, {@code Optional.empty()},
 * or a primitive's default such as {@code 0}), a class through its public no-argument constructor
 * and setters (a property that was not sent is not set).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Input {
  /** The {@link Fillable} profile whose properties the agent may send, e.g. {@code "create"}. */
  String profile();
}
