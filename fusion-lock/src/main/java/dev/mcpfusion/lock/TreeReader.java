package dev.mcpfusion.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Strict reads from a parsed lockfile tree; every failure names the JSON path and what was expected. */
final class TreeReader {
  private final Map<?, ?> map;
  private final String where;

  TreeReader(Object node, String where) {
    if (!(node instanceof Map<?, ?> m)) {
      throw bad(where, "an object", node);
    }
    this.map = m;
    this.where = where;
  }

  String where() {
    return where;
  }

  boolean has(String key) {
    return map.containsKey(key);
  }

  String string(String key) {
    Object v = required(key);
    if (v instanceof String s) {
      return s;
    }
    throw bad(path(key), "a string", v);
  }

  String optionalString(String key) {
    return has(key) ? string(key) : null;
  }

  boolean bool(String key) {
    Object v = required(key);
    if (v instanceof Boolean b) {
      return b;
    }
    throw bad(path(key), "true or false", v);
  }

  long integer(String key) {
    Object v = required(key);
    if (v instanceof Long l) {
      return l;
    }
    throw bad(path(key), "an integer", v);
  }

  List<String> strings(String key) {
    Object v = required(key);
    if (!(v instanceof List<?> list)) {
      throw bad(path(key), "an array of strings", v);
    }
    List<String> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String s)) {
        throw bad(path(key) + "[" + i + "]", "a string", list.get(i));
      }
      out.add(s);
    }
    return out;
  }

  /** The objects of the array at {@code key}, in order. */
  List<TreeReader> objectList(String key) {
    Object v = required(key);
    if (!(v instanceof List<?> list)) {
      throw bad(path(key), "an array of objects", v);
    }
    List<TreeReader> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      out.add(new TreeReader(list.get(i), path(key) + "[" + i + "]"));
    }
    return out;
  }

  Object raw(String key) {
    return required(key);
  }

  TreeReader object(String key) {
    return new TreeReader(required(key), path(key));
  }

  /** The entries of the object at {@code key}, sorted by name. */
  Map<String, TreeReader> objects(String key) {
    TreeReader obj = object(key);
    Map<String, TreeReader> out = new TreeMap<>();
    obj.map.forEach((k, v) -> out.put((String) k, new TreeReader(v, obj.path((String) k))));
    return out;
  }

  /** The names of this object's members, sorted. */
  java.util.Set<String> keys() {
    java.util.Set<String> keys = new java.util.TreeSet<>();
    map.keySet().forEach(k -> keys.add((String) k));
    return keys;
  }

  /** The string values of the object at {@code key}, sorted by name. */
  Map<String, String> stringMap(String key) {
    TreeReader obj = object(key);
    Map<String, String> out = new TreeMap<>();
    obj.map.forEach((k, v) -> out.put((String) k, obj.string((String) k)));
    return out;
  }

  /** The integer values of the object at {@code key}, sorted by name. */
  Map<String, Long> longMap(String key) {
    TreeReader obj = object(key);
    Map<String, Long> out = new TreeMap<>();
    obj.map.forEach((k, v) -> out.put((String) k, obj.integer((String) k)));
    return out;
  }

  <E extends Enum<E>> E enumValue(String key, Class<E> type) {
    String s = string(key);
    try {
      return Enum.valueOf(type, s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("mcpfusion.lock: expected one of "
          + java.util.Arrays.toString(type.getEnumConstants()) + " but was '" + s + "' at " + path(key), e);
    }
  }

  private Object required(String key) {
    if (!map.containsKey(key)) {
      throw new IllegalArgumentException("mcpfusion.lock: missing \"" + key + "\" at " + where);
    }
    return map.get(key);
  }

  private String path(String key) {
    return key.matches("[A-Za-z_][A-Za-z0-9_]*") ? where + "." + key
        : where + "[" + dev.mcpfusion.json.Json.write(key) + "]";
  }

  private static IllegalArgumentException bad(String where, String expected, Object actual) {
    String was = actual == null ? "null" : actual instanceof Map ? "an object"
        : actual instanceof List ? "an array" : dev.mcpfusion.json.Json.write(actual);
    return new IllegalArgumentException("mcpfusion.lock: expected " + expected + " but was " + was
        + " at " + where);
  }
}
