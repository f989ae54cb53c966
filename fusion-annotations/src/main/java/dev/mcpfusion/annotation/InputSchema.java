package dev.mcpfusion.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes an action's whole input by a JSON Schema document instead of by its parameters:
 * {@code @Mutation(...) String book(@InputSchema("schemas/booking.json") Map<String, Object> arguments)}.
 *
 * <p>For an input that a record cannot say: JSON Schema 2020-12 with {@code $defs},
 * {@code allOf}/{@code anyOf}, {@code if}/{@code then}/{@code else}, {@code $anchor}. The document
 * is a class-path resource (in Maven, {@code src/main/resources/schemas/booking.json}); the
 * processor reads and checks it at compile time (JSON, an object schema of {@code "type":
 * "object"}, every {@code $ref} inside the document) and the tool lists it unchanged as its
 * {@code inputSchema}. At call time the arguments are validated against it with a JSON Schema
 * validator, and the agent gets the same {@code <validation_error>} as for a record input; the
 * handler receives the arguments as plain JSON values ({@code Map}, {@code List}, {@code String},
 * {@code Boolean}, {@code BigDecimal}/{@code Long}, {@code null}).
 *
 * <p>The parameter must be a {@code Map<String, Object>} and the action's only input: other
 * parameters may only be {@link Context} values or {@code RequestContext}. The action's router must
 * be FLAT-exposed, since a GROUPED tool merges its actions' fields into one schema.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface InputSchema {
  /** The class-path resource of the schema document, e.g. {@code "schemas/booking.json"}. */
  String value();
}
