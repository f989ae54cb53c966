package dev.mcpfusion.redact;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * A redaction policy compiled for the call path: immutable and thread-safe, built once per action
 * when the server is built. It masks plain JSON trees (path patterns and detectors) and free text
 * (detectors only); the runtime's {@code EgressRedaction} applies it to a whole reply.
 *
 * <p>This is the one entry point for everything an agent reads: tool replies go through
 * {@code EgressRedaction}; prompts and resources call {@link #text} for their text and {@link #tree}
 * for their JSON. Anything it cannot read (a value that is not a plain JSON tree) throws
 * {@link IllegalStateException} instead of passing it on: callers answer with an error, never with
 * the unredacted value.
 */
public final class Redactor {
  /** {@link Mask#FULL}, and {@link Mask#PARTIAL} on text too short to keep a tail. */
  public static final String FULL = "[REDACTED]";
  private static final int KEEP = 4;
  private static final int PARTIAL_MIN = 8;

  /** How many strings {@link #clean} remembers, and the longest it remembers. */
  private static final int CLEAN_SLOTS = 512;
  private static final int CLEAN_MAX_LENGTH = 2048;

  /** What this was compiled from, as the caller named it (the runtime's {@code Redaction}). */
  private final Object source;
  private final PathPattern[] paths;
  private final Finder[] finders;
  private final boolean partial;
  /**
   * Whether a path can match inside the data of the view this redactor is for; {@code false} once
   * {@link #forView} proved that none can, so the data walk tracks no path.
   */
  private final boolean viewPaths;
  /**
   * The top-level fields of this redactor's view that can hold text a finder may find (strings,
   * nested objects and arrays; not numbers, booleans, or enums whose every value was checked when
   * the server was built), when {@link #forView} could tell them from a closed schema; {@code null}
   * walks every field.
   */
  private final String[] textFields;
  /** How many fields the view declares: a tree with more than that is walked whole. */
  private final int declaredFields;
  /**
   * Whether the view's static rules, checked when the server was built, hold nothing to mask: a
   * reply whose {@code _meta} holds only those ({@link dev.mcpfusion.wire.Reply#staticMeta})
   * needs no look at its {@code _meta} or its rules.
   */
  private final boolean staticRulesClean;
  /**
   * Strings the finders found nothing in, by identity: the text a view sends with every reply
   * (its rules, enum names, constants) is the same {@code String} instance each time, and a string
   * cannot change, so it is scanned once. A slot holds one string; a newer one replaces it. Reads
   * and writes race harmlessly: a slot read stale is a miss, and the string is scanned again.
   * Only strings with nothing to mask are kept, and none longer than {@value #CLEAN_MAX_LENGTH}.
   * Immutable lists of such strings (a view's static rules) are kept the same way.
   */
  private final Object[] clean = new Object[CLEAN_SLOTS];

  private Redactor(Object source, PathPattern[] paths, Finder[] finders, boolean partial,
      boolean viewPaths, String[] textFields, int declaredFields, boolean staticRulesClean) {
    this.source = source;
    this.paths = paths;
    this.finders = finders;
    this.partial = partial;
    this.viewPaths = viewPaths && paths.length > 0;
    this.textFields = textFields;
    this.declaredFields = declaredFields;
    this.staticRulesClean = staticRulesClean;
  }

  /**
   * Compiles a policy from its parts; {@code null} for one that masks nothing (so callers skip the
   * step). {@code source} is what the caller compiled it from, handed back by {@link #source()}.
   *
   * @throws IllegalArgumentException for a path that is not one of the three forms, naming it
   */
  public static Redactor compile(Object source, List<String> paths, Collection<Detector> detectors,
      Collection<Pattern> patterns, Mask mask) {
    if (paths.isEmpty() && detectors.isEmpty() && patterns.isEmpty()) {
      return null;
    }
    PathPattern[] compiled = new PathPattern[paths.size()];
    for (int i = 0; i < compiled.length; i++) {
      compiled[i] = PathPattern.parse(paths.get(i));
    }
    List<Finder> finders = new ArrayList<>();
    for (Detector d : detectors) {
      finders.add(Finder.of(d));
    }
    for (Pattern p : patterns) {
      finders.add(Finder.of(p));
    }
    return new Redactor(Objects.requireNonNull(source, "source"), compiled,
        finders.toArray(new Finder[0]), mask == Mask.PARTIAL, true, null, -1, false);
  }

  /**
   * This redactor for the answers of one view, whose output schema is {@code schemaJson} and whose
   * static rules are {@code staticRules}. What the schema proves is used to walk less of each
   * answer, and only where it is proved: when every object in it is closed (its declared
   * properties only, which is all a presenter writes, since a view holds only its components):
   * <ul>
   *   <li>when, in addition, no path names a place in it, the data walk skips path matching;
   *   <li>and then the data walk visits only the fields that can hold text a finder may find:
   *       strings, objects and arrays, and enums or constants with a value in which a finder finds
   *       something (each value is checked here, once); numbers and booleans are skipped.
   * </ul>
   * Suggestions, details and other trees still get every path. Static rules with nothing to mask
   * are checked here, once, instead of on every answer that carries only them.
   */
  public Redactor forView(String schemaJson, List<String> staticRules) {
    return forView(Json.parse(schemaJson), staticRules);
  }

  /** {@link #forView(String, List)} of a schema already parsed. */
  public Redactor forView(Object schema, List<String> staticRules) {
    boolean closed = !ViewSchemas.open(schema, 0);
    boolean pathsInView = viewPaths && (!closed || anyPathIn(schema));
    String[] fields = null;
    int declared = -1;
    if (closed && !pathsInView && schema instanceof Map<?, ?> root
        && root.get("properties") instanceof Map<?, ?> properties) {
      List<String> text = new ArrayList<>();
      for (Map.Entry<?, ?> p : properties.entrySet()) {
        if (ViewSchemas.mayHoldText(p.getValue(), v -> text(v, new Tally()) != v)) {
          // Interned, as the presenter's keys are (constants in its code): the lookup then
          // matches them by identity instead of comparing characters.
          text.add(String.valueOf(p.getKey()).intern());
        }
      }
      fields = text.toArray(new String[0]);
      declared = properties.size();
    }
    boolean rulesClean = true;
    for (String line : staticRules) {
      rulesClean &= line != null && text(line, new Tally()) == line;
    }
    return new Redactor(source, paths, finders, partial, pathsInView, fields, declared, rulesClean);
  }

  private boolean anyPathIn(Object schema) {
    for (PathPattern path : paths) {
      List<String> found = new ArrayList<>();
      ViewSchemas.walk(schema, path, new String[64], 0, found, new ArrayList<>());
      if (!found.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the static rules of this redactor's view hold nothing to mask (see {@link #forView}). */
  public boolean staticRulesClean() {
    return staticRulesClean;
  }

  /** What this was compiled from, as given to {@link #compile}. */
  public Object source() {
    return source;
  }

  /**
   * A path that does not fit a view: {@code field} is where it ends on something other than text
   * and {@code kind} what that is; both {@code null} when the path matches no field of the view.
   */
  public record PathProblem(String path, String field, String kind) {}

  /**
   * The problems of using this redactor on a view with the output schema {@code schema} (parsed):
   * each path that matches no field of the view (when {@code mustMatch}), or ends on something
   * other than text (a masked number, enum or object would no longer match the schema the client
   * validates against). Empty when fine.
   */
  public List<PathProblem> checkAgainst(Object schema, boolean mustMatch) {
    List<PathProblem> problems = new ArrayList<>();
    for (PathPattern path : paths) {
      List<String> found = new ArrayList<>();
      List<String[]> wrong = new ArrayList<>();
      ViewSchemas.walk(schema, path, new String[64], 0, found, wrong);
      if (mustMatch && found.isEmpty()) {
        problems.add(new PathProblem(path.toString(), null, null));
      }
      for (String[] w : wrong) {
        problems.add(new PathProblem(path.toString(), w[0], w[1]));
      }
    }
    return problems;
  }

  /** Masks what the detectors find in {@code text}; {@code null} stays {@code null}. */
  public String text(String text, Tally tally) {
    if (text == null || textClean(text)) {
      return text;
    }
    // Some finder's necessary condition holds (the scan is read again: rare, and cheaper than
    // the finders that follow).
    long scan = TextScan.scan(text);
    Spans spans = tally.spans();
    for (Finder finder : finders) {
      if (TextScan.mayMatch(finder, scan)) {
        finder.find(text, spans);
      }
    }
    if (spans.isEmpty()) {
      remember(text);
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
   * Whether {@link #text} would leave {@code text} as it is, when that is known without running a
   * finder: it was found clean before, or no finder's necessary condition holds. {@code false}
   * means "not known": call {@link #text}.
   */
  boolean textClean(String text) {
    // The remembered strings first: that look-up reads no character.
    if (clean[System.identityHashCode(text) & (CLEAN_SLOTS - 1)] == text || finders.length == 0
        || text.isEmpty()) {
      return true;
    }
    long scan = TextScan.scan(text);
    for (Finder finder : finders) {
      if (TextScan.mayMatch(finder, scan)) {
        return false;
      }
    }
    remember(text);
    return true;
  }

  /** Remembers {@code text}, found to hold nothing to mask, unless it is too long to keep. */
  private void remember(String text) {
    if (text.length() <= CLEAN_MAX_LENGTH) {
      clean[System.identityHashCode(text) & (CLEAN_SLOTS - 1)] = text;
    }
  }

  /**
   * Whether every line of the immutable list {@code lines} was found clean by an earlier call
   * (see {@link #rememberClean}): the same list instance, as a view sends its static rules.
   */
  public boolean knownClean(List<?> lines) {
    return clean[System.identityHashCode(lines) & (CLEAN_SLOTS - 1)] == lines;
  }

  /**
   * Remembers that {@code lines}, whose every line {@link #text} left as it was, holds nothing to
   * mask; only an immutable list is remembered, since only its lines cannot change later.
   */
  public void rememberClean(List<?> lines) {
    if (!lines.isEmpty() && List.copyOf(lines) == lines) {
      clean[System.identityHashCode(lines) & (CLEAN_SLOTS - 1)] = lines;
    }
  }

  /**
   * The plain JSON tree {@code tree} (one view, or a map of arguments or details) with the values at
   * the path patterns masked, and what the detectors find in every other string. Copy on write:
   * {@code tree} itself is never changed, and a map or list with nothing to mask is returned as is
   * (the same instance).
   *
   * @throws IllegalStateException for a node that is not a plain JSON value (string, number,
   *     boolean, null, list or string-keyed map), which it cannot vouch for
   */
  public Object tree(Object tree, Tally tally) {
    if (tree == null || tree instanceof Boolean || tree instanceof Number) {
      return tree;
    }
    return node(tree, tally.path(), 0, false, tally);
  }

  /**
   * {@link #tree} of one view's data ({@code structuredContent} of a single answer, one item of a
   * collection): with the path patterns, unless {@link #forView} showed that none can match there.
   */
  public Object viewTree(Object tree, Tally tally) {
    if (viewPaths) {
      return tree(tree, tally);
    }
    if (textFields != null && tree instanceof Map<?, ?> map && map.size() <= declaredFields) {
      return textFields(map, tally);
    }
    if (tree == null || tree instanceof Boolean || tree instanceof Number) {
      return tree;
    }
    return node(tree, null, 0, false, tally);
  }

  /**
   * Whether {@link #viewTree} would return {@code tree} as it is, when that is known without a walk
   * or a {@link Tally}: the view's schema gave its text fields ({@link #forView}), and each holds
   * nothing or a string {@link #textClean} vouches for. {@code false} means "not known": call
   * {@link #viewTree}.
   */
  public boolean viewClean(Object tree) {
    if (viewPaths || textFields == null || !(tree instanceof Map<?, ?> map)
        || map.size() > declaredFields) {
      return false;
    }
    for (String field : textFields) {
      Object value = map.get(field);
      if (value != null && !(value instanceof String s && textClean(s))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A view's data walked by its {@link #textFields} alone, copy on write. Looking the few fields
   * up is cheaper than walking the map: most views hold numbers, enums and a few strings.
   */
  private Object textFields(Map<?, ?> map, Tally tally) {
    Map<String, Object> out = null;
    for (String field : textFields) {
      Object before = map.get(field);
      if (before == null) {
        continue;
      }
      Object after = node(before, null, 1, false, tally);
      if (after != before) {
        if (out == null) {
          out = new LinkedHashMap<>(castMap(map));
        }
        out.put(field, after);
      }
    }
    return out == null ? map : out;
  }

  /** {@link #tree} of a value that sits under {@code key} (an error detail), for the path patterns. */
  public Object tree(String key, Object value, Tally tally) {
    String[] at = tally.path();
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
    // at == null: a walk that tracks no path (see viewTree).
    if (at != null && at.length == size) {
      at = java.util.Arrays.copyOf(at, size * 2);
    }
    if (value instanceof Map<?, ?> map) {
      // forEach rather than entrySet: a reply's maps are unmodifiable views, whose entry set wraps
      // every entry it hands out, and this walk runs on every call.
      MapWalk walk = new MapWalk(map, at, size, masked, tally);
      map.forEach(walk);
      return walk.out == null ? map : walk.out;
    }
    if (value instanceof List<?> list) {
      boolean here = masked;
      if (at != null) {
        at[size] = PathPattern.ELEMENT;
        here = masked || (paths.length > 0 && matchesPath(at, size + 1));
      }
      List<Object> out = null;
      for (int i = 0; i < list.size(); i++) {
        Object before = list.get(i);
        Object after = node(before, at, size + 1, here, tally);
        if (out == null && after != before) {
          out = new ArrayList<>(list.size());
          out.addAll(list.subList(0, i));
        }
        if (out != null) {
          out.add(after);
        }
      }
      return out == null ? list : out;
    }
    throw new IllegalStateException("cannot redact a " + value.getClass().getName()
        + "; only plain JSON trees (String, Number, Boolean, List, Map, null) can be vouched for");
  }

  /**
   * One map of a {@link #tree} walk, copy on write: {@link #out} stays {@code null} until a value
   * changes, then holds a copy of the map with the changed values in place.
   */
  private final class MapWalk implements BiConsumer<Object, Object> {
    private final Map<?, ?> map;
    private final String[] at;
    private final int size;
    private final boolean masked;
    private final Tally tally;
    private Map<String, Object> out;

    MapWalk(Map<?, ?> map, String[] at, int size, boolean masked, Tally tally) {
      this.map = map;
      this.at = at;
      this.size = size;
      this.masked = masked;
      this.tally = tally;
    }

    @Override
    public void accept(Object k, Object before) {
      if (!(k instanceof String key)) {
        throw new IllegalStateException("cannot redact a map whose key is a "
            + (k == null ? "null" : k.getClass().getName()));
      }
      boolean here = masked;
      if (at != null) {
        at[size] = key;
        here = masked || (paths.length > 0 && matchesPath(at, size + 1));
      }
      Object after = node(before, at, size + 1, here, tally);
      if (out == null && after != before) {
        // Every entry copied (every key is text: the walk is past the earlier ones, and a later
        // key that is not fails the walk); this one and later changes replace theirs in place.
        out = new LinkedHashMap<>(castMap(map));
      }
      if (out != null) {
        out.put(key, after);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> map) {
    return (Map<String, Object>) map;
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
    return "Redactor[" + source + "]";
  }
}
