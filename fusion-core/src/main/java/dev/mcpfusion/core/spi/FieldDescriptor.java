package dev.mcpfusion.core.spi;

/**
 * One top-level input field of an action. Generated code names what it builds:
 * {@code FieldDescriptor.required("id", schema)}, {@code FieldDescriptor.optional("status",
 * schema).describedAs("Only invoices in this status")}, {@code ....asCommon()}.
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

  /** A required field without description, not common. */
  public static FieldDescriptor required(String name, String schemaJson) {
    return new FieldDescriptor(name, schemaJson, true, "", false);
  }

  /** An optional field without description, not common. */
  public static FieldDescriptor optional(String name, String schemaJson) {
    return new FieldDescriptor(name, schemaJson, false, "", false);
  }

  /** This field with the plain description {@code description}. */
  public FieldDescriptor describedAs(String description) {
    return new FieldDescriptor(name, schemaJson, required, description, common, profile);
  }

  /** This field, marked as coming from {@code @Router(common = ...)}. */
  public FieldDescriptor asCommon() {
    return new FieldDescriptor(name, schemaJson, required, description, true, profile);
  }

  /** This field, taking the model properties fillable in {@code profile} ({@code @Input}). */
  public FieldDescriptor withProfile(String profile) {
    return new FieldDescriptor(name, schemaJson, required, description, common, profile);
  }
}
