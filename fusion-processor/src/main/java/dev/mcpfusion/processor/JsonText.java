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

  private static void quote(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            sb.append("\\u");
            String hex = Integer.toHexString(c);
            sb.append("0000", hex.length(), 4).append(hex);
          } else {
            sb.append(c);
          }
      }
    }
    sb.append('"');
  }
}
