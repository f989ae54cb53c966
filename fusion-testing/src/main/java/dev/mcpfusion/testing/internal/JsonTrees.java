package dev.mcpfusion.testing.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain JSON trees for the test kit: strict parsing (duplicate keys and trailing text rejected,
 * decimals as {@code BigDecimal}) and searches by property name at any depth.
 */
public final class JsonTrees {
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private JsonTrees() {}

  /** Parses JSON text into {@code Map}/{@code List}/scalars; malformed text throws {@link IllegalArgumentException}. */
  public static Object parse(String json) {
    try {
      return MAPPER.readValue(json, Object.class);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("Not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Parses JSON text, or returns {@code null} when it is not valid JSON. */
  public static Object tryParse(String text) {
    try {
      return MAPPER.readValue(text, Object.class);
    } catch (JacksonException e) {
      return null;
    }
  }

  /** A deep copy of a tree whose maps have string keys, in iteration order. */
  public static Object plain(Object value) {
    if (value instanceof Map<?, ?> m) {
      return stringKeys(m);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) {
        out.add(plain(o));
      }
      return out;
    }
    if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
      return value;
    }
    return MAPPER.convertValue(value, Object.class);
  }

  /** A deep copy of {@code map} with string keys, in iteration order. */
  public static Map<String, Object> stringKeys(Map<?, ?> map) {
    Map<String, Object> out = new LinkedHashMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
    return out;
  }

  /** Compact JSON text of a value. */
  public static String write(Object value) {
    return MAPPER.writeValueAsString(value);
  }

  /**
   * A deeply unmodifiable copy of a plain tree (string keys, iteration order kept, {@code null}
   * values allowed): what the kit's immutable types hand out.
   */
  public static Object frozen(Object value) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), frozen(v)));
      return Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) {
        out.add(frozen(o));
      }
      return Collections.unmodifiableList(out);
    }
    return plain(value);
  }

  /**
   * The JSON paths ({@code $.a.b[2].c}) at which an object property named {@code name} occurs in
   * {@code tree}, at any depth.
   */
  public static List<String> pathsOf(Object tree, String name) {
    List<String> out = new ArrayList<>();
    collect(tree, name, "$", out);
    return out;
  }

  /**
   * Like {@link #pathsOf}, and also inside every string value that is itself a JSON object or
   * array (a data block inside a reply's {@code content[].text}); such paths read
   * {@code $.result.content[1].text<json>.items[0].secret}.
   */
  public static List<String> pathsOfDeep(Object tree, String name) {
    List<String> out = new ArrayList<>();
    collect(tree, name, "$", out, true);
    return out;
  }

  private static void collect(Object node, String name, String path, List<String> out) {
    collect(node, name, path, out, false);
  }

  private static void collect(Object node, String name, String path, List<String> out, boolean deep) {
    if (node instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String key = String.valueOf(e.getKey());
        String child = path + "." + key;
        if (key.equals(name)) {
          out.add(child);
        }
        collect(e.getValue(), name, child, out, deep);
      }
    } else if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        collect(list.get(i), name, path + "[" + i + "]", out, deep);
      }
    } else if (deep && node instanceof String s) {
      String t = s.strip();
      if (t.startsWith("{") || t.startsWith("[")) {
        Object embedded = tryParse(t);
        if (embedded != null) {
          collect(embedded, name, path + "<json>", out, true);
        }
      }
    }
  }
}
