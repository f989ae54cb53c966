package dev.mcpfusion.core;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.annotation.Redact;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What to mask in the text an agent reads: the server-wide default set with
 * {@link FusionServer.Builder#redact(Redaction)}, or a view's {@link Redact @Redact} (which replaces
 * the default for the actions presenting that view: the most specific wins).
 *
 * <pre>{@code
 * FusionServer.builder("crm", "1.0.0")
 *     .redact(Redaction.paths("*.email").detect(Detector.CARD, Detector.API_KEY)
 *         .pattern("employee id", "EMP-\\d{6}"))
 * }</pre>
 *
 * <p>Immutable: every method returns a new policy. Path syntax and detectors are described on
 * {@link Redact}; {@link #pattern} adds a detector of your own (a regular expression whose every
 * match is masked).
 */
public final class Redaction {
  private static final Redaction NONE =
      new Redaction(List.of(), EnumSet.noneOf(Detector.class), Map.of(), Mask.FULL);

  private final List<String> paths;
  private final Set<Detector> detectors;
  private final Map<String, Pattern> patterns;
  private final Mask mask;

  private Redaction(List<String> paths, Set<Detector> detectors, Map<String, Pattern> patterns,
      Mask mask) {
    this.paths = List.copyOf(paths);
    this.detectors = Collections.unmodifiableSet(detectors.isEmpty()
        ? EnumSet.noneOf(Detector.class) : EnumSet.copyOf(detectors));
    this.patterns = Collections.unmodifiableMap(new LinkedHashMap<>(patterns));
    this.mask = mask;
  }

  /** A policy that masks nothing yet: add paths, detectors or patterns to it. */
  public static Redaction none() {
    return NONE;
  }

  /** A policy that masks the values at these path patterns (see {@link Redact#paths()}). */
  public static Redaction paths(String... paths) {
    return NONE.andPaths(paths);
  }

  /** A policy that masks what these detectors find in every string. */
  public static Redaction detecting(Detector... detectors) {
    return NONE.detect(detectors);
  }

  /** The policy a view's {@code @Redact} declares. */
  public static Redaction of(Redact redact) {
    Objects.requireNonNull(redact, "redact");
    return NONE.andPaths(redact.paths()).detect(redact.detect()).mask(redact.mask());
  }

  /** This policy with more path patterns. */
  public Redaction andPaths(String... more) {
    List<String> all = new ArrayList<>(paths);
    for (String path : more) {
      all.add(Objects.requireNonNull(path, "path"));
    }
    return new Redaction(all, detectors, patterns, mask);
  }

  /** This policy with more detectors. */
  public Redaction detect(Detector... more) {
    Set<Detector> all = detectors.isEmpty() ? EnumSet.noneOf(Detector.class) : EnumSet.copyOf(detectors);
    all.addAll(Arrays.asList(more));
    return new Redaction(paths, all, patterns, mask);
  }

  /**
   * This policy with a detector of your own: every match of {@code regex} inside a string is masked.
   *
   * @param name how the lockfile and error messages name it, e.g. {@code "employee id"}
   * @throws IllegalArgumentException if {@code regex} does not compile or matches the empty string,
   *     or the name is already used
   */
  public Redaction pattern(String name, String regex) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(regex, "regex");
    if (patterns.containsKey(name)) {
      throw new IllegalArgumentException("Redaction pattern \"" + name + "\" is already defined;"
          + " give each pattern its own name.");
    }
    Pattern compiled;
    try {
      compiled = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("Redaction pattern \"" + name + "\" is not a valid regular"
          + " expression: " + e.getDescription() + " near index " + e.getIndex() + ".", e);
    }
    if (compiled.matcher("").matches()) {
      throw new IllegalArgumentException("Redaction pattern \"" + name + "\" matches the empty"
          + " string, so it would mask nothing useful; make it require at least one character.");
    }
    Map<String, Pattern> all = new LinkedHashMap<>(patterns);
    all.put(name, compiled);
    return new Redaction(paths, detectors, all, mask);
  }

  /** This policy with another mask. */
  public Redaction mask(Mask mask) {
    return new Redaction(paths, detectors, patterns, Objects.requireNonNull(mask, "mask"));
  }

  /** The path patterns, in the order given. */
  public List<String> paths() {
    return paths;
  }

  /** The detectors. */
  public Set<Detector> detectors() {
    return detectors;
  }

  /** The patterns of {@link #pattern}, by name, in the order given. */
  public Map<String, Pattern> patterns() {
    return patterns;
  }

  /** How values and found text are masked. */
  public Mask mask() {
    return mask;
  }

  /** Whether this policy masks nothing at all. */
  public boolean isEmpty() {
    return paths.isEmpty() && detectors.isEmpty() && patterns.isEmpty();
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Redaction that)) {
      return false;
    }
    if (!paths.equals(that.paths) || !detectors.equals(that.detectors) || mask != that.mask
        || !patterns.keySet().equals(that.patterns.keySet())) {
      return false;
    }
    for (Map.Entry<String, Pattern> e : patterns.entrySet()) {
      if (!e.getValue().pattern().equals(that.patterns.get(e.getKey()).pattern())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return Objects.hash(paths, detectors, mask, patterns.keySet());
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    patterns.forEach((k, v) -> parts.add(k + "=" + v.pattern()));
    return "Redaction[paths=" + paths + ", detect=" + detectors + ", patterns=" + parts
        + ", mask=" + mask + "]";
  }
}
