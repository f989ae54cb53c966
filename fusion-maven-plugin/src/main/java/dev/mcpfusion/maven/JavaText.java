package dev.mcpfusion.maven;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Names and literals of the generated Java: identifiers from document names, escaped text. */
final class JavaText {
  private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte",
      "case", "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum",
      "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof",
      "int", "interface", "long", "native", "new", "package", "private", "protected", "public", "return",
      "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws",
      "transient", "try", "void", "volatile", "while", "true", "false", "null", "var", "record",
      "yield", "sealed", "permits", "_");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private JavaText() {}

  /** Whether {@code name} can be a Java identifier as it is (a record component named as the JSON key). */
  static boolean isIdentifier(String name) {
    return IDENTIFIER.matcher(name).matches() && !KEYWORDS.contains(name);
  }

  /** {@code list-data-sets}, {@code list data sets} → {@code ListDataSets}; a leading digit gets {@code N}. */
  static String pascal(String text) {
    StringBuilder out = new StringBuilder();
    boolean upper = true;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 128 && Character.isLetterOrDigit(c)) {
        out.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      } else {
        upper = true;
      }
    }
    if (out.length() == 0 || Character.isDigit(out.charAt(0))) {
      out.insert(0, 'N');
    }
    return out.toString();
  }

  /** {@code list-data-sets} → {@code listDataSets}; {@code api_key} → {@code apiKey}; keywords get {@code _}. */
  static String camel(String text) {
    String p = pascal(text);
    String c = p.length() > 1 && Character.isUpperCase(p.charAt(1)) && !Character.isLowerCase(p.charAt(0))
        && allUpper(p) ? p.toLowerCase(Locale.ROOT) : Character.toLowerCase(p.charAt(0)) + p.substring(1);
    return KEYWORDS.contains(c) ? c + "_" : c;
  }

  private static boolean allUpper(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isLowerCase(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** {@code Swagger Petstore} → {@code swagger_petstore}: a router name, {@code [a-z][a-z0-9_]*}. */
  static String snake(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 128 && Character.isLetterOrDigit(c)) {
        if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(text.charAt(i - 1))) {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else if (out.length() > 0 && out.charAt(out.length() - 1) != '_') {
        out.append('_');
      }
    }
    while (out.length() > 0 && out.charAt(out.length() - 1) == '_') {
      out.setLength(out.length() - 1);
    }
    return out.toString();
  }

  /** A Java string literal of {@code text}: whitespace runs collapsed, non-ASCII as {@code \\uXXXX}. */
  static String literal(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : oneLine(text).toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** {@code text} on one line: every whitespace run one space, trimmed. */
  static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s+", " ");
  }

  /** Text for a Javadoc comment: one line, ASCII, no comment end, no tag or HTML start. */
  static String doc(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : oneLine(text).toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '@' -> out.append("&#64;");
        case '\\' -> out.append("&#92;");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format(Locale.ROOT, "&#x%04x;", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString().replace("*/", "*&#47;");
  }
}
