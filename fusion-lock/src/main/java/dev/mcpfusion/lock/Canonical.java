package dev.mcpfusion.lock;

import dev.mcpfusion.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Canonical JSON for the lockfile: keys sorted at every level; compact for digests, indented for the file. */
final class Canonical {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  /** Schema keywords whose value maps property names (not keywords) to schemas. */
  private static final List<String> NAME_MAPS = List.of("properties", "patternProperties", "$defs", "definitions");
  /** Value constraints (checked on top of the type), plus {@code description}. */
  private static final Set<String> CONSTRAINTS = Set.of("description", "minLength", "maxLength",
      "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
      "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties");

  private Canonical() {}

  /** A copy of {@code tree} whose maps are {@link TreeMap}s (keys in {@code String} order); lists keep their order. */
  static Object sorted(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      TreeMap<String, Object> out = new TreeMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("JSON object keys must be strings: " + e.getKey());
        }
        out.put(key, sorted(e.getValue()));
      }
      return out;
    }
    if (tree instanceof Collection<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object item : list) {
        out.add(sorted(item));
      }
      return out;
    }
    return tree;
  }

  /** The compact canonical JSON text of {@code tree}. */
  static String compact(Object tree) {
    return Json.write(sorted(tree));
  }

  /** {@code "sha256:<lowercase hex>"} of the UTF-8 bytes of {@link #compact}. */
  static String digest(Object tree) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(compact(tree).getBytes(StandardCharsets.UTF_8));
      StringBuilder out = new StringBuilder("sha256:");
      for (byte b : hash) {
        out.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
      }
      return out.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The indented canonical text: sorted keys, 2-space indent, {@code "key": value}, trailing newline. */
  static String pretty(Object tree) {
    StringBuilder out = new StringBuilder(4096);
    pretty(sorted(tree), out, 0);
    return out.append('\n').toString();
  }

  private static void pretty(Object v, StringBuilder out, int depth) {
    if (v instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        indent(out, depth + 1);
        out.append(Json.write(e.getKey())).append(": ");
        pretty(e.getValue(), out, depth + 1);
        out.append(++i < map.size() ? ",\n" : "\n");
      }
      indent(out, depth);
      out.append('}');
    } else if (v instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        indent(out, depth + 1);
        pretty(list.get(i), out, depth + 1);
        out.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      indent(out, depth);
      out.append(']');
    } else {
      out.append(Json.write(v));
    }
  }

  private static void indent(StringBuilder out, int depth) {
    out.append("  ".repeat(depth));
  }

  /**
   * A copy of a JSON Schema tree without its {@code description} keywords at any depth (a property
   * <em>named</em> "description" is kept): what is left is the shape and the constraints.
   */
  static Object withoutDescriptions(Object schema) {
    return without(schema, Set.of("description"));
  }

  /**
   * A copy of a JSON Schema tree without the value constraints a validator checks on top of the
   * type ({@code minLength}, {@code pattern}, {@code minimum}, ...) and without descriptions: what
   * is left is the type of each value ({@code type}, {@code format}, {@code enum}, {@code items},
   * {@code properties}, nested {@code required}, ...).
   */
  static Object typeOnly(Object schema) {
    return without(schema, CONSTRAINTS);
  }

  private static Object without(Object schema, Set<String> keywords) {
    if (schema instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = (String) e.getKey();
        if (keywords.contains(key)) {
          continue;
        }
        if (NAME_MAPS.contains(key) && e.getValue() instanceof Map<?, ?> named) {
          Map<String, Object> props = new LinkedHashMap<>();
          named.forEach((name, sub) -> props.put((String) name, without(sub, keywords)));
          out.put(key, props);
        } else {
          out.put(key, without(e.getValue(), keywords));
        }
      }
      return out;
    }
    if (schema instanceof List<?> list) {
      return list.stream().map(item -> without(item, keywords)).toList();
    }
    return schema;
  }

  /**
   * The {@code description} of every property of an object schema, by path ({@code a}, nested
   * {@code a.b}, array items {@code a[].b}), in sorted order; properties without one are absent.
   */
  static Map<String, String> propertyDescriptions(Object schema) {
    Map<String, String> out = new TreeMap<>();
    collect(schema, "", out);
    return out;
  }

  private static void collect(Object schema, String prefix, Map<String, String> out) {
    if (!(schema instanceof Map<?, ?> map)) {
      return;
    }
    if (map.get("properties") instanceof Map<?, ?> props) {
      for (Map.Entry<?, ?> e : props.entrySet()) {
        String path = prefix.isEmpty() ? (String) e.getKey() : prefix + "." + e.getKey();
        if (e.getValue() instanceof Map<?, ?> sub) {
          if (sub.get("description") instanceof String d) {
            out.put(path, d);
          }
          collect(sub, path, out);
        }
      }
    }
    if (map.get("items") instanceof Map<?, ?> items) {
      collect(items, prefix + "[]", out);
    }
    for (String key : List.of("anyOf", "oneOf", "allOf")) {
      if (map.get(key) instanceof List<?> branches) {
        for (Object branch : branches) {
          collect(branch, prefix, out);
        }
      }
    }
  }
}
