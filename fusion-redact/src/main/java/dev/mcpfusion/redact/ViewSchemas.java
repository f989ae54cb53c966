package dev.mcpfusion.redact;

import dev.mcpfusion.json.Json;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a view's output schema proves to a {@link Redactor} fitted to it ({@link Redactor#forView},
 * {@link Redactor#checkAgainst}): whether every object in it is closed, which places a path
 * pattern reaches and whether they hold text, and which fields can hold text at all. Read once,
 * when the server is built.
 */
final class ViewSchemas {
  private ViewSchemas() {}

  /** Whether some object in {@code node} may hold keys its schema does not declare (or is unreadable). */
  static boolean open(Object node, int depth) {
    if (!(node instanceof Map<?, ?> schema)) {
      // false allows nothing; true, or anything unreadable, allows any value.
      return !Boolean.FALSE.equals(node);
    }
    if (depth > 32 || schema.containsKey("$ref") || schema.containsKey("patternProperties")) {
      return true;
    }
    Object type = schema.get("type");
    boolean object = hasType(type, "object") || schema.containsKey("properties");
    if (object && (!(schema.get("properties") instanceof Map<?, ?>)
        || !Boolean.FALSE.equals(schema.get("additionalProperties")))) {
      return true;
    }
    if (type == null && !object && !schema.containsKey("enum") && !schema.containsKey("const")
        && !schema.containsKey("anyOf") && !schema.containsKey("oneOf")) {
      // No declared type: anything, an object included.
      return true;
    }
    if (schema.get("properties") instanceof Map<?, ?> properties) {
      for (Object p : properties.values()) {
        if (open(p, depth + 1)) {
          return true;
        }
      }
    }
    if (hasType(type, "array") && !schema.containsKey("items")) {
      return true;
    }
    if (schema.containsKey("items") && open(schema.get("items"), depth + 1)) {
      return true;
    }
    for (String key : new String[] {"anyOf", "oneOf", "allOf"}) {
      if (schema.get(key) instanceof List<?> branches) {
        for (Object branch : branches) {
          if (open(branch, depth + 1)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  static void walk(Object node, PathPattern path, String[] at, int size,
      List<String> found, List<String[]> wrong) {
    if (!(node instanceof Map<?, ?> schema) || size >= at.length - 1) {
      return;
    }
    if (size > 0 && path.matches(at, size)) {
      String where = String.join(".", Arrays.asList(at).subList(0, size))
          .replace(".[*]", "[*]");
      found.add(where);
      if (!isText(schema)) {
        wrong.add(new String[] {where, describe(schema)});
      }
      return;
    }
    if (schema.get("properties") instanceof Map<?, ?> properties) {
      for (Map.Entry<?, ?> p : properties.entrySet()) {
        at[size] = String.valueOf(p.getKey());
        walk(p.getValue(), path, at, size + 1, found, wrong);
      }
    }
    if (schema.get("items") instanceof Map<?, ?> items) {
      at[size] = PathPattern.ELEMENT;
      walk(items, path, at, size + 1, found, wrong);
    }
    if (schema.get("anyOf") instanceof List<?> branches) {
      for (Object branch : branches) {
        walk(branch, path, at, size, found, wrong);
      }
    }
  }

  static boolean isText(Map<?, ?> schema) {
    if (schema.containsKey("enum") || schema.containsKey("const") || schema.containsKey("pattern")) {
      return false;
    }
    Object type = schema.get("type");
    if (hasType(type, "string")) {
      return true;
    }
    return hasType(type, "array") && schema.get("items") instanceof Map<?, ?> items && isText(items);
  }

  static boolean hasType(Object type, String name) {
    return name.equals(type) || (type instanceof Collection<?> types && types.contains(name));
  }

  static String describe(Map<?, ?> schema) {
    if (schema.containsKey("enum")) {
      return "an enum";
    }
    if (schema.containsKey("pattern")) {
      return "a string with a pattern";
    }
    Object type = schema.get("type");
    return type == null ? "a value of no declared type" : "type " + Json.write(type);
  }

  /**
   * Whether a value the property schema {@code node} of a closed view allows can hold text in
   * which a finder may find something. Only what the schema rules out is {@code false} ({@code masks}: whether a finder finds something in a string): numbers,
   * booleans and {@code null}, and enum or constant values all checked clean now.
   */
  static boolean mayHoldText(Object node, Predicate<String> masks) {
    if (!(node instanceof Map<?, ?> schema)) {
      return true;
    }
    if (schema.containsKey("anyOf") || schema.containsKey("oneOf") || schema.containsKey("allOf")) {
      return true;
    }
    if (schema.containsKey("enum") || schema.containsKey("const")) {
      Object values = schema.containsKey("enum") ? schema.get("enum")
          : Collections.singletonList(schema.get("const"));
      if (!(values instanceof List<?> list)) {
        return true;
      }
      for (Object value : list) {
        if (value instanceof String s ? masks.test(s)
            : !(value == null || value instanceof Number || value instanceof Boolean)) {
          return true;
        }
      }
      return false;
    }
    Object type = schema.get("type");
    if (type == null) {
      return true;
    }
    for (Object t : type instanceof Collection<?> types ? types : List.of(type)) {
      if (!("integer".equals(t) || "number".equals(t) || "boolean".equals(t) || "null".equals(t))) {
        return true;
      }
    }
    return false;
  }
}
