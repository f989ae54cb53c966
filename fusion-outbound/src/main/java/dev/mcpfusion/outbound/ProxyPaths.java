package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a {@link ProxyCall}'s arguments become its URL and body: each {@code {name}} of the path is
 * one percent-encoded segment (so an argument cannot add a segment, a query or a fragment), query
 * values are percent-encoded, a body is a plain JSON tree without {@code null} members.
 */
final class ProxyPaths {
  private ProxyPaths() {}

  static String expand(String template, Map<String, Object> args) {
    StringBuilder out = new StringBuilder(template.length() + 16);
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '{') {
        out.append(c);
        i++;
        continue;
      }
      int end = template.indexOf('}', i);
      String name = template.substring(i + 1, end);
      Object value = args.get(name);
      String text = value == null ? "" : text(value);
      if (text.isEmpty() || text.equals(".") || text.equals("..")) {
        // "." and ".." would walk the upstream's path even encoded (servers normalise %2E).
        throw FusionError.of(Codes.VALIDATION_ERROR, "The argument '" + name + "' is " + (value == null ? "missing"
                : "\"" + text + "\"") + ", which cannot name a path segment of the upstream call.")
            .recovery("Pass a value for '" + name + "' that is not empty, \".\" or \"..\".")
            .detail("field", name);
      }
      out.append(encode(text));
      i = end + 1;
    }
    return out.toString();
  }

  /**
   * The plain JSON tree of a body: maps and records (components by name) with their {@code null}
   * members left out, collections as arrays, enums by name.
   */
  static Object tree(Object value) {
    if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Enum<?> || value instanceof Character) {
      return text(value);
    }
    Map<String, Object> members = new LinkedHashMap<>();
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> put(members, String.valueOf(k), v));
      return members;
    }
    if (value instanceof Collection<?> items) {
      List<Object> array = new ArrayList<>(items.size());
      items.forEach(item -> array.add(tree(item)));
      return array;
    }
    if (value instanceof Record) {
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        try {
          put(members, component.getName(), component.getAccessor().invoke(value));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("Cannot read " + value.getClass().getName() + "." + component.getName()
              + " for a JSON body: make the record public and its package exported to dev.mcpfusion.outbound.", e);
        }
      }
      return members;
    }
    throw new IllegalArgumentException("A JSON body holds maps, records, collections, strings, numbers, booleans and"
        + " enums; got " + value.getClass().getName() + ".");
  }

  private static void put(Map<String, Object> members, String name, Object value) {
    if (value != null) {
      members.put(name, tree(value));
    }
  }

  static String text(Object value) {
    return value instanceof Enum<?> e ? e.name() : String.valueOf(value);
  }

  /** RFC 3986 percent-encoding of everything but the unreserved characters. */
  static String encode(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '.' || c == '_' || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
