package dev.mcpfusion.lock;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One input field of an action as the lockfile records it.
 *
 * @param required whether the validator rejects a call without it
 * @param schema the field's JSON Schema without its {@code description} keywords (shape and
 *     constraints only), keys sorted
 * @param descriptions the descriptions in the field's schema by property path: the field itself
 *     under its own name, nested record components as {@code name.component}
 * @param profile for an {@code @Input(profile = ...)} parameter, its fillable profile (the
 *     schema's properties are the model properties fillable in it); otherwise {@code null}
 */
public record InputField(boolean required, Object schema, Map<String, String> descriptions,
    String profile) {

  public InputField {
    schema = Canonical.sorted(schema);
    descriptions = java.util.Collections.unmodifiableMap(new TreeMap<>(descriptions));
  }

  /** A field that is not a fillable profile. */
  public InputField(boolean required, Object schema, Map<String, String> descriptions) {
    this(required, schema, descriptions, null);
  }

  static InputField of(String name, Object fullSchema, boolean required) {
    return of(name, fullSchema, required, null);
  }

  static InputField of(String name, Object fullSchema, boolean required, String profile) {
    Map<String, Object> wrapper = new LinkedHashMap<>();
    wrapper.put("properties", Map.of(name, fullSchema));
    return new InputField(required, Canonical.withoutDescriptions(fullSchema),
        Canonical.propertyDescriptions(wrapper), profile);
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("descriptions", descriptions);
    if (profile != null) {
      tree.put("profile", profile);
    }
    tree.put("required", required);
    tree.put("schema", schema);
    return tree;
  }

  static InputField fromTree(TreeReader r) {
    return new InputField(r.bool("required"), r.raw("schema"), r.stringMap("descriptions"),
        r.has("profile") ? r.string("profile") : null);
  }
}
