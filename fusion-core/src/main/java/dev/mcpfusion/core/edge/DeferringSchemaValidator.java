package dev.mcpfusion.core.edge;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;
import java.util.Set;

/**
 * The validator of the SDK's modern tools feature, which always validates inputs (no switch, unlike
 * the classic {@code validateToolInputs(false)}): for our tools' input schemas it answers "valid"
 * and leaves validation to the pipeline (generated checks, then Bean Validation), so both eras
 * answer a bad argument with the same {@code <validation_error>}. Every other schema (output
 * schemas included) goes to the SDK's default validator, as in the classic server.
 */
final class DeferringSchemaValidator implements JsonSchemaValidator {
  private final Set<Map<String, Object>> ours;
  private final JsonSchemaValidator delegate;

  /** @param ours the input schemas the pipeline validates, compared by identity */
  DeferringSchemaValidator(Set<Map<String, Object>> ours, JsonSchemaValidator delegate) {
    this.ours = ours;
    this.delegate = delegate;
  }

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object value) {
    if (schema != null && ours.contains(schema)) {
      return ValidationResponse.asValid(null);
    }
    return delegate.validate(schema, value);
  }
}
