package dev.mcpfusion.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;

/**
 * Deterministic compact JSON for plain trees, and a strict parser producing plain trees.
 *
 * <p>A plain tree is a {@code Map} with {@code String} keys (iteration order kept), a
 * {@code List} (or any {@code Collection}), a {@code String}, a {@code Number}, a {@code Boolean} or
 * {@code null}. For convenience the writer also accepts the scalar values a suggestion argument
 * typically holds: an enum (its {@code name()}), a {@code Character}, a {@code UUID} and
 * {@code java.time} values (their ISO {@code toString()}); anything else is an
 * {@link IllegalArgumentException}, never a reflective guess.
 *
 * <p>Output rules: no whitespace; strings escape {@code "}, {@code \} and control characters
 * ({@code \n \r \t \b \f}, others as <code>&#92;u00XX</code>); a lone surrogate, which UTF-8 cannot encode, becomes
 * U+FFFD (so two map keys that differ only in a lone surrogate are written as one repeated key,
 * which a strict parser rejects; keys normally come from view components and schemas); other
 * non-ASCII text stays as is. Integral numbers are written as their decimal digits,
 * {@code BigDecimal} as {@link BigDecimal#toString()} (exact, possibly with an exponent such as
 * {@code 1E+3}), {@code double}/{@code float} as {@link Double#toString}/{@link Float#toString}
 * (finite values only).
 */
public final class Json {
  /**
   * The streaming parser's factory (Jackson's core only: no databind is loaded to read JSON), with
   * duplicate keys rejected; {@code NaN}, comments and single quotes are rejected by default.
   */
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private static final char[] HEX = "0123456789abcdef".toCharArray();
  /** Written for a lone surrogate, which no UTF-8 text (and no strict parser) can carry. */
  private static final char REPLACEMENT = '\uFFFD';

  private Json() {}

  /** The compact JSON text of {@code plainTree}. */
  public static String write(Object plainTree) {
    StringBuilder out = new StringBuilder(64);
    write(plainTree, out, 0);
    return out.toString();
  }

  /**
   * Appends the compact JSON text of {@code plainTree} to {@code out}: exactly what
   * {@link #write} returns. On an exception, part of the text may already have been appended.
   */
  public static void appendValue(Object plainTree, StringBuilder out) {
    write(plainTree, out, 0);
  }

  /**
   * Appends {@code s} as a JSON string literal, escaped as {@link #write} escapes strings;
   * {@code null} appends {@code null}.
   */
  public static void appendString(CharSequence s, StringBuilder out) {
    if (s == null) {
      out.append("null");
    } else {
      string(s, out);
    }
  }

  /**
   * Appends {@code d} as {@link #write} writes a {@code Double}: {@link Double#toString}.
   *
   * @throws IllegalArgumentException if {@code d} is not finite
   */
  public static void appendNumber(double d, StringBuilder out) {
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("JSON has no representation for " + d);
    }
    out.append(d); // StringBuilder.append(double) is specified as String.valueOf(double)
  }

  /**
   * Appends {@code f} as {@link #write} writes a {@code Float}: {@link Float#toString}.
   *
   * @throws IllegalArgumentException if {@code f} is not finite
   */
  public static void appendNumber(float f, StringBuilder out) {
    if (!Float.isFinite(f)) {
      throw new IllegalArgumentException("JSON has no representation for " + f);
    }
    out.append(f);
  }

  private static void write(Object v, StringBuilder out, int depth) {
    if (depth > 1000) {
      throw new IllegalArgumentException("JSON tree nested deeper than 1000 levels (a cycle?)");
    }
    if (v == null) {
      out.append("null");
    } else if (v instanceof String s) {
      string(s, out);
    } else if (v instanceof Boolean b) {
      out.append(b.booleanValue() ? "true" : "false");
    } else if (v instanceof Integer i) {
      out.append(i.intValue());
    } else if (v instanceof Long l) {
      out.append(l.longValue());
    } else if (v instanceof Number n) {
      out.append(number(n));
    } else if (v instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("JSON object keys must be strings, but got "
              + (e.getKey() == null ? "null" : e.getKey().getClass().getName()));
        }
        if (!first) {
          out.append(',');
        }
        first = false;
        string(key, out);
        out.append(':');
        write(e.getValue(), out, depth + 1);
      }
      out.append('}');
    } else if (v instanceof Collection<?> list) {
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) {
          out.append(',');
        }
        first = false;
        write(item, out, depth + 1);
      }
      out.append(']');
    } else if (v instanceof CharSequence cs) {
      string(cs.toString(), out);
    } else if (v instanceof Enum<?> e) {
      string(e.name(), out);
    } else if (v instanceof Character || v instanceof UUID || v instanceof TemporalAccessor) {
      string(v.toString(), out);
    } else {
      throw new IllegalArgumentException(
          "Not a plain JSON value: " + v.getClass().getName());
    }
  }

  /** The JSON text of a number; non-finite values are an {@link IllegalArgumentException}. */
  static String number(Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
        || n instanceof BigInteger || n instanceof AtomicInteger || n instanceof AtomicLong) {
      return n.toString();
    }
    if (n instanceof BigDecimal d) {
      return d.toString();
    }
    if (n instanceof Double d) {
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("JSON has no representation for " + d);
      }
      return d.toString();
    }
    if (n instanceof Float f) {
      if (!Float.isFinite(f)) {
        throw new IllegalArgumentException("JSON has no representation for " + f);
      }
      return f.toString();
    }
    // Other Number types (DoubleAdder, LongAdder, user types): exact through their decimal text.
    String text = n.toString();
    try {
      return new BigDecimal(text).toString();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("JSON has no representation for " + n.getClass().getName()
          + " value " + text);
    }
  }

  /**
   * Appends {@code s} as a JSON string literal. Runs of characters that need no escape are copied
   * in one {@code append}; a well-formed surrogate pair is part of such a run.
   */
  static void string(CharSequence s, StringBuilder out) {
    out.append('"');
    int n = s.length();
    int run = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
        continue;
      }
      out.append(s, run, i);
      run = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            unicode(c, out);
          } else {
            out.append(REPLACEMENT); // a lone surrogate
          }
        }
      }
    }
    out.append(s, run, n).append('"');
  }

  private static void unicode(char c, StringBuilder out) {
    out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
  }

  /**
   * Parses one JSON text strictly (duplicate keys, trailing tokens, comments, {@code NaN} and
   * single quotes are rejected) into a plain tree: {@code LinkedHashMap}, {@code ArrayList},
   * {@code String}, {@code Boolean}, {@code Long} (or {@code BigInteger} beyond the long range),
   * {@code BigDecimal} for every number with a fraction or exponent, {@code null}.
   *
   * @throws IllegalArgumentException if {@code json} is not one valid JSON value
   */
  public static Object parse(String json) {
    try (JsonParser parser = FACTORY.createParser(json)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new IllegalArgumentException("Invalid JSON: no content");
      }
      Object value = value(parser, first);
      JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        throw new IllegalArgumentException("Invalid JSON: trailing token (" + trailing
            + ") after the value");
      }
      return value;
    } catch (JacksonException e) {
      throw new IllegalArgumentException("Invalid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * A streaming parser over {@code length} bytes of UTF-8 JSON with {@link #parse}'s strictness
   * (duplicate keys, non-finite numbers rejected), for a reader that builds its own tree.
   */
  public static JsonParser parser(byte[] json, int length) {
    return FACTORY.createParser(json, 0, length);
  }

  /** A streaming parser over {@code json} with {@link #parse}'s strictness. */
  public static JsonParser parser(String json) {
    return FACTORY.createParser(json);
  }

  private static Object value(JsonParser parser, JsonToken token) {
    switch (token) {
      case START_OBJECT: {
        Map<String, Object> object = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = parser.currentName();
          object.put(name, value(parser, parser.nextToken()));
        }
        return object;
      }
      case START_ARRAY: {
        List<Object> array = new ArrayList<>();
        JsonToken next;
        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
          array.add(value(parser, next));
        }
        return array;
      }
      case VALUE_STRING:
        return parser.getString();
      case VALUE_NUMBER_INT:
        return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? (Object) parser.getBigIntegerValue() : (Object) parser.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return parser.getDecimalValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IllegalArgumentException("Invalid JSON: unexpected " + token);
    }
  }

  /**
   * Converts a Jackson tree to a plain tree with the same types as {@link #parse}; a
   * {@code null} node or a missing node is {@code null}.
   */
  public static Object fromNode(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        map.put(e.getKey(), fromNode(e.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      for (JsonNode item : node.values()) {
        list.add(fromNode(item));
      }
      return list;
    }
    if (node.isString()) {
      return node.stringValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
    }
    if (node.isNumber()) {
      if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
        throw new IllegalArgumentException("JSON has no representation for " + node.doubleValue());
      }
      return node.decimalValue();
    }
    throw new IllegalArgumentException("Not a JSON value: " + node.getNodeType());
  }
}
