package dev.mcpfusion.redact;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One {@code @Redact} path: {@code a.b} (exact), {@code a[*].b} (every element of the list
 * {@code a}) and a leading {@code *.} (at any depth). Compiled to tokens: names, and {@code [*]} for
 * "an element of the list before it".
 */
public final class PathPattern {
  static final String ELEMENT = "[*]";
  private static final Pattern NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

  private final String text;
  private final boolean anyDepth;
  private final String[] tokens;

  private PathPattern(String text, boolean anyDepth, String[] tokens) {
    this.text = text;
    this.anyDepth = anyDepth;
    this.tokens = tokens;
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the pattern and the expected forms
   */
  static PathPattern parse(String text) {
    String rest = text;
    boolean anyDepth = false;
    if (rest.startsWith("*.")) {
      anyDepth = true;
      rest = rest.substring(2);
    }
    List<String> tokens = new ArrayList<>();
    for (String segment : rest.split("\\.", -1)) {
      String name = segment;
      int elements = 0;
      while (name.endsWith(ELEMENT)) {
        name = name.substring(0, name.length() - ELEMENT.length());
        elements++;
      }
      if (!NAME.matcher(name).matches()) {
        throw new InvalidPath(text, segment);
      }
      tokens.add(name);
      for (int i = 0; i < elements; i++) {
        tokens.add(ELEMENT);
      }
    }
    return new PathPattern(text, anyDepth, tokens.toArray(new String[0]));
  }

  /** A path that is none of the three forms: {@link #path} and the {@link #segment} at fault. */
  public static final class InvalidPath extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String path;
    private final String segment;

    InvalidPath(String path, String segment) {
      super("The redaction path \"" + path + "\" is not valid: '" + segment + "' is not a field"
          + " name. Write an exact path (\"a.b\"), a list element path (\"items[*].cardNumber\")"
          + " or an any-depth path (\"*.email\").");
      this.path = path;
      this.segment = segment;
    }

    /** The whole path as written. */
    public String path() {
      return path;
    }

    /** The segment that is not a field name. */
    public String segment() {
      return segment;
    }
  }

  /** Whether the node at {@code path} (the first {@code size} tokens) is one this pattern names. */
  boolean matches(String[] path, int size) {
    int n = tokens.length;
    if (anyDepth ? size < n : size != n) {
      return false;
    }
    int offset = size - n;
    for (int i = 0; i < n; i++) {
      if (!tokens[i].equals(path[offset + i])) {
        return false;
      }
    }
    return true;
  }

  /** The tokens, for the build-time check against the output schema. */
  String[] tokens() {
    return tokens.clone();
  }

  boolean anyDepth() {
    return anyDepth;
  }

  @Override
  public String toString() {
    return text;
  }
}
