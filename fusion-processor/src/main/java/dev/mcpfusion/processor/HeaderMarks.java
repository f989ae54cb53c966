package dev.mcpfusion.processor;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.util.Elements;

/**
 * {@code @McpHeader} on a top-level tool argument (an action parameter or a component of the
 * router's common record): checked here, written as the argument schema's {@code x-mcp-header}
 * (SEP-2243), which the HTTP transport reads back to check the {@code Mcp-Param-*} headers.
 */
final class HeaderMarks {
  /** RFC 9110 {@code tchar}s besides letters and digits. */
  private static final String TCHARS = "!#$%&'*+-.^_`|~";
  /** The JSON types a header may carry, as the transport accepts them. */
  private static final Set<String> TYPES = Set.of("string", "integer", "number", "boolean");

  private HeaderMarks() {}

  /**
   * Reads the {@code @McpHeader} {@code mark} of the argument {@code site} (declared by
   * {@code anchor}) into it: reported on the annotation and false when its name is not a token or
   * the argument's type cannot be a header; true when valid or {@code mark} is {@code null}.
   */
  static boolean read(Inputs.Site site, AnnotationMirror mark, Element anchor, String where,
      Elements elements, Reporter reporter) {
    if (mark == null) {
      return true;
    }
    String name = Mirrors.string(elements, mark, "value");
    AnnotationMirror on = mark;
    String bad = badToken(name);
    if (bad != null) {
      reporter.reportOn(Diagnostic.MCP_HEADER_NAME, anchor, on, null, where, site.name, name, bad);
      return false;
    }
    Inputs.In in = site.in.value();
    String type = in.kind == Inputs.In.Kind.ENUM ? "string"
        : in.kind == Inputs.In.Kind.SCALAR ? in.scalar.jsonType : null;
    if (type == null || !TYPES.contains(type)) {
      reporter.reportOn(Diagnostic.MCP_HEADER_TYPE, anchor, on, null, where, site.name, name,
          "a " + Views.display(in.mirror));
      return false;
    }
    site.constraints.header = name;
    return true;
  }

  /** Why {@code name} is not an RFC 9110 token, or {@code null} when it is one. */
  private static String badToken(String name) {
    if (name.isEmpty()) {
      return "it is empty";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || TCHARS.indexOf(c) >= 0;
      if (!tchar) {
        return "'" + (c < 0x20 || c == 0x7f ? String.format(Locale.ROOT, "\\u%04x", (int) c)
            : String.valueOf(c)) + "' is not allowed in a header name";
      }
    }
    return null;
  }

  /**
   * Whether no two of {@code sites} (the common fields, then the parameters) share a header name,
   * ignoring case; each clash is reported on {@code anchor}.
   */
  static boolean unique(List<Inputs.Site> sites, Element anchor, String where, Reporter reporter) {
    Map<String, Inputs.Site> seen = new HashMap<>();
    boolean ok = true;
    for (Inputs.Site site : sites) {
      String header = site.constraints.header;
      if (header == null) {
        continue;
      }
      Inputs.Site first = seen.putIfAbsent(header.toLowerCase(Locale.ROOT), site);
      if (first != null) {
        reporter.report(Diagnostic.MCP_HEADER_DUPLICATE, anchor, where, first.name, site.name,
            header);
        ok = false;
      }
    }
    return ok;
  }
}
