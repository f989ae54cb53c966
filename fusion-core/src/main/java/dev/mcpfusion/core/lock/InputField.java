package dev.mcpfusion.core.lock;

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
 */
public record InputField(boolean required, Object schema, Map<String, String> descriptions) {

  public InputField {
    schema = Canonical.sorted(schema);
    descriptions = java.util.Collections.unmodifiableMap(new TreeMap<>(descriptions));
  }

  static InputField of(String name, Object fullSchema, boolean required) {
    Map<String, Object> wrapper = new LinkedHashMap<>();
    wrapper.put("properties", Map.of(name, fullSchema));
    return new InputField(required, Canonical.withoutDescriptions(fullSchema),
        Canonical.propertyDescriptions(wrapper));
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("descriptions", descriptions);
    tree.put("required", required);
    tree.put("schema", schema);
    return tree;
  }

  static InputField fromTree(TreeReader r) {
    return new InputField(r.bool("required"), r.raw("schema"), r.stringMap("descriptions"));
  }
}
