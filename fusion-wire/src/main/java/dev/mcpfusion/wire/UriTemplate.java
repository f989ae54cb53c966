package dev.mcpfusion.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource URI template with {@code {name}} variables (RFC 6570 level 1, the form the processor
 * accepts): each variable matches one non-empty segment without {@code / ? #}, and its value is
 * percent-decoded. Immutable.
 */
public final class UriTemplate {
  private static final Pattern VARIABLE = Pattern.compile("\\{([a-zA-Z_][a-zA-Z0-9_]*)\\}");

  private final String template;
  private final Pattern pattern;
  private final List<String> variables;

  private UriTemplate(String template, Pattern pattern, List<String> variables) {
    this.template = template;
    this.pattern = pattern;
    this.variables = variables;
  }

  /** Parses a template such as {@code billing://invoices/{id}}. */
  public static UriTemplate parse(String template) {
    Matcher m = VARIABLE.matcher(template);
    StringBuilder regex = new StringBuilder();
    List<String> names = new ArrayList<>();
    int end = 0;
    while (m.find()) {
      regex.append(Pattern.quote(template.substring(end, m.start())));
      regex.append("([^/?#]+)");
      names.add(m.group(1));
      end = m.end();
    }
    regex.append(Pattern.quote(template.substring(end)));
    return new UriTemplate(template, Pattern.compile(regex.toString()),
        Collections.unmodifiableList(names));
  }

  /** The template text. */
  public String template() {
    return template;
  }

  /** The variable names, in order. */
  public List<String> variables() {
    return variables;
  }

  /** The variables {@code uri} gives this template, or {@code null} when it does not match. */
  public Map<String, String> match(String uri) {
    Matcher m = pattern.matcher(uri);
    if (!m.matches()) {
      return null;
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < variables.size(); i++) {
      String value = decode(m.group(i + 1));
      if (value == null) {
        return null;
      }
      values.put(variables.get(i), value);
    }
    return Collections.unmodifiableMap(values);
  }

  /** Percent-decodes UTF-8; {@code null} for a malformed escape. */
  private static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          return null;
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
