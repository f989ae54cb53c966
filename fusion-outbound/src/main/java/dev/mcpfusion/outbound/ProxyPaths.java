package dev.mcpfusion.outbound;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a {@code @Proxy} action's arguments become its URL: each {@code {name}} of the path is one
 * percent-encoded segment (so an argument cannot add a segment, a query or a fragment), the rest
 * a query string; {@code null} arguments are left out.
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

  static String query(Map<String, Object> args) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, Object> arg : args.entrySet()) {
      if (arg.getValue() == null) {
        continue;
      }
      out.append(out.length() == 0 ? '?' : '&').append(encode(arg.getKey())).append('=')
          .append(encode(text(arg.getValue())));
    }
    return out.toString();
  }

  /** The arguments that are set, enums as their names, for a JSON body. */
  static Map<String, Object> present(Map<String, Object> args) {
    Map<String, Object> present = new LinkedHashMap<>();
    for (Map.Entry<String, Object> arg : args.entrySet()) {
      Object value = arg.getValue();
      if (value != null) {
        present.put(arg.getKey(), value instanceof Enum<?> e ? e.name() : value instanceof Character ? value.toString() : value);
      }
    }
    return present;
  }

  private static String text(Object value) {
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
