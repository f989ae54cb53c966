package dev.mcpfusion.core.spi;

/**
 * One top-level input field of an action.
 *
 * @param name the JSON property name
 * @param schemaJson the property's complete JSON Schema (2020-12) as compact JSON, description
 *     included, without {@code $schema}; deterministic
 * @param required whether the field is required (a primitive, or {@code @NotNull}/{@code @NotBlank}/
 *     {@code @NotEmpty}; for a common field, also any non-nullable component)
 * @param description the plain description ({@code @Describe}), or empty
 * @param common whether the field comes from {@code @Router(common = ...)}
 * @param profile for an {@code @Input(profile = ...)} parameter, the fillable profile whose model
 *     properties the field's object takes; otherwise {@code null}
 */
public record FieldDescriptor(String name, String schemaJson, boolean required, String description,
    boolean common, String profile) {

  /** A field that is not a fillable profile. */
  public FieldDescriptor(String name, String schemaJson, boolean required, String description,
      boolean common) {
    this(name, schemaJson, required, description, common, null);
  }
}
