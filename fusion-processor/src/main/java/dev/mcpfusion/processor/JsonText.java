package dev.mcpfusion.processor;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** Writes schema trees built at compile time as compact JSON; key order is insertion order. */
final class JsonText {
  private JsonText() {}

  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb);
    return sb.toString();
  }

  private static void write(Object value, StringBuilder sb) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String) {
      quote((String) value, sb);
    } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
      sb.append(value);
    } else if (value instanceof BigDecimal) {
      sb.append(((BigDecimal) value).toString());
    } else if (value instanceof Map) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        quote((String) e.getKey(), sb);
        sb.append(':');
        write(e.getValue(), sb);
      }
      sb.append('}');
    } else if (value instanceof List) {
      sb.append('[');
      boolean first = true;
      for (Object o : (List<?>) value) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        write(o, sb);
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass());
    }
  }

  /**
   * {@code s} as a JSON string literal escaped exactly as the runtime's {@code Json.write} escapes
   * it (generated writers append it as a constant, so it must match the runtime byte for byte):
   * {@code "} and {@code \}, {@code \n \r \t \b \f}, other control characters as
   * <code>&#92;u00XX</code>, a lone surrogate as U+FFFD, everything else as is.
   */
  static String runtimeString(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (escapeCommon(c, sb)) {
        continue;
      }
      switch (c) {
        case '\b':
          sb.append("\\b");
          break;
        case '\f':
          sb.append("\\f");
          break;
        default:
          if (c < 0x20) {
            String hex = Integer.toHexString(c);
            sb.append("\\u").append("0000", hex.length(), 4).append(hex);
          } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            sb.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            sb.append('\uFFFD');
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Appends the escape both writers give {@code c} ({@code "} and {@code \}, {@code \n \r \t});
   * false for any other character, which each writer escapes by its own rules.
   */
  private static boolean escapeCommon(char c, StringBuilder sb) {
    switch (c) {
      case '"':
        sb.append("\\\"");
        return true;
      case '\\':
        sb.append("\\\\");
        return true;
      case '\n':
        sb.append("\\n");
        return true;
      case '\r':
        sb.append("\\r");
        return true;
      case '\t':
        sb.append("\\t");
        return true;
      default:
        return false;
    }
  }

  /**
   * The escaping of schema text (parsed again at run time, so only validity matters; U+2028/2029
   * escaped so the text is also safe inside JavaScript). Not {@link #runtimeString}: that one must
   * match the runtime writer byte for byte, and changing this one would change every golden schema.
   */
  private static void quote(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (escapeCommon(c, sb)) {
        continue;
      }
      if (c < 0x20 || c == 0x2028 || c == 0x2029) {
        sb.append("\\u");
        String hex = Integer.toHexString(c);
        sb.append("0000", hex.length(), 4).append(hex);
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }
}
