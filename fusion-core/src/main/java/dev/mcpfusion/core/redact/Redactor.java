package dev.mcpfusion.core.redact;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A {@link Redaction} compiled for the call path: immutable and thread-safe, built once per action
 * when the server is built. It masks plain JSON trees (path patterns and detectors) and free text
 * (detectors only); {@link EgressRedaction} applies it to a whole reply.
 *
 * <p>This is the one entry point for everything an agent reads: tool replies go through
 * {@link EgressRedaction}; prompts and resources call {@link #text} for their text and {@link #tree}
 * for their JSON. Anything it cannot read (a value that is not a plain JSON tree) throws
 * {@link IllegalStateException} instead of passing it on: callers answer with an error, never with
 * the unredacted value.
 */
public final class Redactor {
  /** {@link Mask#FULL}, and {@link Mask#PARTIAL} on text too short to keep a tail. */
  public static final String FULL = "[REDACTED]";
  private static final int KEEP = 4;
  private static final int PARTIAL_MIN = 8;

  private final Redaction policy;
  private final PathPattern[] paths;
  private final Finder[] finders;
  private final boolean partial;

  private Redactor(Redaction policy, PathPattern[] paths, Finder[] finders) {
    this.policy = policy;
    this.paths = paths;
    this.finders = finders;
    this.partial = policy.mask() == Mask.PARTIAL;
  }

  /**
   * Compiles {@code policy}; {@code null} for a policy that masks nothing (so callers skip the step).
   *
   * @throws IllegalArgumentException for a path that is not one of the three forms, naming it
   */
  public static Redactor compile(Redaction policy) {
    if (policy == null || policy.isEmpty()) {
      return null;
    }
    PathPattern[] paths = new PathPattern[policy.paths().size()];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = PathPattern.parse(policy.paths().get(i));
    }
    List<Finder> finders = new ArrayList<>();
    for (Detector d : policy.detectors()) {
      finders.add(Finder.of(d));
    }
    for (Pattern p : policy.patterns().values()) {
      finders.add(Finder.of(p));
    }
    return new Redactor(policy, paths, finders.toArray(new Finder[0]));
  }

  /** The policy this was compiled from. */
  public Redaction policy() {
    return policy;
  }

  /**
   * The problems of using this redactor on a view with the output schema {@code schemaJson}: each
   * path that matches no field of the view (when {@code mustMatch}), or ends on something other than text (a masked number,
   * enum or object would no longer match the schema the client validates against). Empty when fine.
   */
  public List<String> checkAgainst(String viewName, String schemaJson, boolean mustMatch) {
    List<String> problems = new ArrayList<>();
    Object schema = Json.parse(schemaJson);
    for (PathPattern path : paths) {
      List<String> found = new ArrayList<>();
      List<String> wrong = new ArrayList<>();
      walkSchema(schema, path, new String[64], 0, found, wrong);
      if (mustMatch && found.isEmpty()) {
        problems.add("@Redact path \"" + path + "\" of " + viewName + " matches no field of the"
            + " view. Name a field it exposes (paths are relative to one view: \"email\","
            + " \"cards[*].number\", \"*.email\").");
      }
      for (String w : wrong) {
        problems.add("@Redact path \"" + path + "\" of " + viewName + " ends on " + w + "; only"
            + " text can be masked without breaking the output schema. Point it at a String field"
            + " (or a list of strings), or expose the value as a String in the view.");
      }
    }
    return problems;
  }

  private static void walkSchema(Object node, PathPattern path, String[] at, int size,
      List<String> found, List<String> wrong) {
    if (!(node instanceof Map<?, ?> schema) || size >= at.length - 1) {
      return;
    }
    if (size > 0 && path.matches(at, size)) {
      String where = String.join(".", java.util.Arrays.asList(at).subList(0, size))
          .replace(".[*]", "[*]");
      found.add(where);
      if (!isText(schema)) {
        wrong.add("'" + where + "' (" + describe(schema) + ")");
      }
      return;
    }
    if (schema.get("properties") instanceof Map<?, ?> properties) {
      for (Map.Entry<?, ?> p : properties.entrySet()) {
        at[size] = String.valueOf(p.getKey());
        walkSchema(p.getValue(), path, at, size + 1, found, wrong);
      }
    }
    if (schema.get("items") instanceof Map<?, ?> items) {
      at[size] = PathPattern.ELEMENT;
      walkSchema(items, path, at, size + 1, found, wrong);
    }
    if (schema.get("anyOf") instanceof List<?> branches) {
      for (Object branch : branches) {
        walkSchema(branch, path, at, size, found, wrong);
      }
    }
  }

  private static boolean isText(Map<?, ?> schema) {
    if (schema.containsKey("enum") || schema.containsKey("const") || schema.containsKey("pattern")) {
      return false;
    }
    Object type = schema.get("type");
    if (hasType(type, "string")) {
      return true;
    }
    return hasType(type, "array") && schema.get("items") instanceof Map<?, ?> items && isText(items);
  }

  private static boolean hasType(Object type, String name) {
    return name.equals(type) || (type instanceof Collection<?> types && types.contains(name));
  }

  private static String describe(Map<?, ?> schema) {
    if (schema.containsKey("enum")) {
      return "an enum";
    }
    if (schema.containsKey("pattern")) {
      return "a string with a pattern";
    }
    Object type = schema.get("type");
    return type == null ? "a value of no declared type" : "type " + Json.write(type);
  }

  /** Masks what the detectors find in {@code text}; {@code null} stays {@code null}. */
  public String text(String text, Tally tally) {
    if (text == null || finders.length == 0 || text.isEmpty()) {
      return text;
    }
    Spans spans = new Spans();
    for (Finder finder : finders) {
      finder.find(text, spans);
    }
    if (spans.isEmpty()) {
      return text;
    }
    int n = spans.merge();
    StringBuilder out = new StringBuilder(text.length() + 8);
    int last = 0;
    for (int i = 0; i < n; i++) {
      out.append(text, last, spans.start(i));
      mask(text, spans.start(i), spans.end(i), out);
      last = spans.end(i);
    }
    out.append(text, last, text.length());
    tally.add(n);
    return out.toString();
  }

  /**
   * A copy of the plain JSON tree {@code tree} (one view, or a map of arguments or details) with
   * the values at the path patterns masked, and what the detectors find in every other string.
   *
   * @throws IllegalStateException for a node that is not a plain JSON value (string, number,
   *     boolean, null, list or string-keyed map), which it cannot vouch for
   */
  public Object tree(Object tree, Tally tally) {
    return node(tree, new String[16], 0, false, tally);
  }

  /** {@link #tree} of a value that sits under {@code key} (an error detail), for the path patterns. */
  public Object tree(String key, Object value, Tally tally) {
    String[] at = new String[16];
    at[0] = key;
    return node(value, at, 1, paths.length > 0 && matchesPath(at, 1), tally);
  }

  private Object node(Object value, String[] at, int size, boolean masked, Tally tally) {
    if (value == null || value instanceof Boolean || value instanceof Number) {
      return value;
    }
    if (value instanceof String s) {
      if (masked) {
        tally.add(1);
        return maskWhole(s);
      }
      return text(s, tally);
    }
    if (at.length == size) {
      at = java.util.Arrays.copyOf(at, size * 2);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>(Math.max(4, map.size() * 2));
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalStateException("cannot redact a map whose key is a "
              + (e.getKey() == null ? "null" : e.getKey().getClass().getName()));
        }
        at[size] = key;
        boolean here = masked || (paths.length > 0 && matchesPath(at, size + 1));
        out.put(key, node(e.getValue(), at, size + 1, here, tally));
      }
      return out;
    }
    if (value instanceof List<?> list) {
      at[size] = PathPattern.ELEMENT;
      boolean here = masked || (paths.length > 0 && matchesPath(at, size + 1));
      List<Object> out = new ArrayList<>(list.size());
      for (Object item : list) {
        out.add(node(item, at, size + 1, here, tally));
      }
      return out;
    }
    throw new IllegalStateException("cannot redact a " + value.getClass().getName()
        + "; only plain JSON trees (String, Number, Boolean, List, Map, null) can be vouched for");
  }

  private boolean matchesPath(String[] at, int size) {
    for (PathPattern p : paths) {
      if (p.matches(at, size)) {
        return true;
      }
    }
    return false;
  }

  private String maskWhole(String s) {
    StringBuilder out = new StringBuilder(Math.max(FULL.length(), s.length()));
    mask(s, 0, s.length(), out);
    return out.toString();
  }

  private void mask(String s, int start, int end, StringBuilder out) {
    if (partial) {
      int alnum = 0;
      for (int i = start; i < end; i++) {
        if (Character.isLetterOrDigit(s.charAt(i))) {
          alnum++;
        }
      }
      if (alnum >= PARTIAL_MIN) {
        int hide = alnum - KEEP;
        for (int i = start; i < end; i++) {
          char c = s.charAt(i);
          if (Character.isLetterOrDigit(c) && hide > 0) {
            out.append('*');
            hide--;
          } else {
            out.append(c);
          }
        }
        return;
      }
    }
    out.append(FULL);
  }

  @Override
  public String toString() {
    return "Redactor[" + Objects.toString(policy) + "]";
  }
}
