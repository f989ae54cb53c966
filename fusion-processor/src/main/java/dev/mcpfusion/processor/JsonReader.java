package dev.mcpfusion.processor;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON document (RFC 8259) into a plain tree — {@code LinkedHashMap} in document order,
 * {@code ArrayList}, {@code String}, {@code BigDecimal}, {@code Boolean}, {@code null} — for the
 * schema documents of {@code @InputSchema}, which the processor checks without a JSON library.
 * A duplicate key is an error (a schema with two {@code "type"} keys means nothing reliable).
 */
final class JsonReader {
  /** Why a document is not JSON, with the line and column where reading stopped. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private final String text;
  private int at;

  private JsonReader(String text) {
    this.text = text;
  }

  static Object read(String text) throws Malformed {
    JsonReader r = new JsonReader(text);
    r.space();
    Object value = r.value();
    r.space();
    if (r.at < text.length()) {
      throw r.fail("unexpected text after the document");
    }
    return value;
  }

  private Object value() throws Malformed {
    if (at >= text.length()) {
      throw fail("the document ends where a value was expected");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return word("true", Boolean.TRUE);
      case 'f':
        return word("false", Boolean.FALSE);
      case 'n':
        return word("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw fail("unexpected character '" + c + "'");
    }
  }

  private Map<String, Object> object() throws Malformed {
    Map<String, Object> out = new LinkedHashMap<>();
    at++;
    space();
    if (peek() == '}') {
      at++;
      return out;
    }
    while (true) {
      space();
      if (peek() != '"') {
        throw fail("expected a member name in double quotes");
      }
      String key = string();
      space();
      expect(':');
      space();
      if (out.containsKey(key)) {
        throw fail("the key \"" + key + "\" appears twice in one object");
      }
      out.put(key, value());
      space();
      if (peek() == ',') {
        at++;
        continue;
      }
      expect('}');
      return out;
    }
  }

  private List<Object> array() throws Malformed {
    List<Object> out = new ArrayList<>();
    at++;
    space();
    if (peek() == ']') {
      at++;
      return out;
    }
    while (true) {
      space();
      out.add(value());
      space();
      if (peek() == ',') {
        at++;
        continue;
      }
      expect(']');
      return out;
    }
  }

  private String string() throws Malformed {
    StringBuilder out = new StringBuilder();
    at++;
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw fail("a control character inside a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) {
        break;
      }
      char e = text.charAt(at++);
      switch (e) {
        case '"': case '\\': case '/': out.append(e); break;
        case 'b': out.append('\b'); break;
        case 'f': out.append('\f'); break;
        case 'n': out.append('\n'); break;
        case 'r': out.append('\r'); break;
        case 't': out.append('\t'); break;
        case 'u':
          if (at + 4 > text.length() || !text.substring(at, at + 4).matches("[0-9a-fA-F]{4}")) {
            throw fail("a \\u escape needs four hex digits");
          }
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
          break;
        default:
          throw fail("unknown escape \\" + e);
      }
    }
    throw fail("a string is not closed");
  }

  private BigDecimal number() throws Malformed {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    String n = text.substring(start, at);
    if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
      at = start;
      throw fail("'" + n + "' is not a JSON number");
    }
    return new BigDecimal(n);
  }

  private Object word(String word, Object value) throws Malformed {
    if (!text.startsWith(word, at)) {
      throw fail("unexpected text");
    }
    at += word.length();
    return value;
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void expect(char c) throws Malformed {
    if (peek() != c) {
      throw fail("expected '" + c + "'");
    }
    at++;
  }

  private void space() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private Malformed fail(String why) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(at, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new Malformed(why + " at line " + line + ", column " + column);
  }
}
