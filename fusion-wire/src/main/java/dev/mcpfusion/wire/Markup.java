package dev.mcpfusion.wire;

/**
 * Escaping for the XML-like blocks the agent reads ({@code <tool_error>}, {@code <domain_rules>},
 * ...). Text escapes {@code &} and {@code <}; attribute values also escape {@code >}, {@code "}
 * and {@code '}, so a value can never close its element or attribute.
 */
public final class Markup {
  private Markup() {}

  /** {@code text} with {@code &} and {@code <} escaped. */
  public static String text(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String replacement = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        default -> null;
      };
      if (replacement != null) {
        if (out == null) {
          out = new StringBuilder(text.length() + 16).append(text, 0, i);
        }
        out.append(replacement);
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }

  /** {@code value} escaped for a double-quoted attribute: {@code & < > " '}. */
  public static String attribute(String value) {
    StringBuilder out = new StringBuilder(value.length() + 16);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
