package dev.mcpfusion.framework.egress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON for the test's client: messages written and read with a plain mapper, and the raw members of
 * a result as the server wrote them (the byte cap is measured on those bytes, not on a re-encoding).
 */
final class Json {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}

  static String write(Object tree) {
    return MAPPER.writeValueAsString(tree);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(String json) {
    return MAPPER.readValue(json, LinkedHashMap.class);
  }

  /**
   * The members of the JSON object {@code json} as written: each name and the exact text of its
   * value. Names are read as plain text (the framework writes ASCII names without escapes).
   */
  static Map<String, String> rawMembers(String json) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = skipSpace(json, 0);
    expect(json, i, '{');
    i = skipSpace(json, i + 1);
    if (json.charAt(i) == '}') {
      return out;
    }
    while (true) {
      expect(json, i, '"');
      int nameEnd = skipString(json, i);
      String name = json.substring(i + 1, nameEnd - 1);
      i = skipSpace(json, nameEnd);
      expect(json, i, ':');
      int start = skipSpace(json, i + 1);
      int end = skipValue(json, start);
      out.put(name, json.substring(start, end));
      i = skipSpace(json, end);
      if (json.charAt(i) == '}') {
        return out;
      }
      expect(json, i, ',');
      i = skipSpace(json, i + 1);
    }
  }

  /** An object written from raw members, as {@link #rawMembers} read them. */
  static String fromRawMembers(Map<String, String> members) {
    List<String> parts = new ArrayList<>();
    members.forEach((name, value) -> parts.add("\"" + name + "\":" + value));
    return "{" + String.join(",", parts) + "}";
  }

  private static void expect(String json, int i, char c) {
    if (i >= json.length() || json.charAt(i) != c) {
      throw new IllegalArgumentException("expected '" + c + "' at " + i + " of " + json);
    }
  }

  private static int skipSpace(String json, int i) {
    while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The index after the string starting at {@code i}. */
  private static int skipString(String json, int i) {
    for (int j = i + 1; j < json.length(); j++) {
      char c = json.charAt(j);
      if (c == '\\') {
        j++;
      } else if (c == '"') {
        return j + 1;
      }
    }
    throw new IllegalArgumentException("unterminated string at " + i);
  }

  /** The index after the value starting at {@code i}. */
  private static int skipValue(String json, int i) {
    char c = json.charAt(i);
    if (c == '"') {
      return skipString(json, i);
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      for (int j = i; j < json.length(); j++) {
        char d = json.charAt(j);
        if (d == '"') {
          j = skipString(json, j) - 1;
        } else if (d == '{' || d == '[') {
          depth++;
        } else if ((d == '}' || d == ']') && --depth == 0) {
          return j + 1;
        }
      }
      throw new IllegalArgumentException("unterminated value at " + i);
    }
    int j = i;
    while (j < json.length() && ",}] \t\r\n".indexOf(json.charAt(j)) < 0) {
      j++;
    }
    return j;
  }
}
