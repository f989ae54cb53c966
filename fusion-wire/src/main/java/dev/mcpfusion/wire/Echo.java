package dev.mcpfusion.wire;

/**
 * How the framework repeats, in its own replies, something a client sent — a tool, action,
 * prompt or argument name, a URI, a method, a request id, a protocol version: whole when it is
 * short, cut and said so when it is not. An agent that sends a 100 kB name must not get a 100 kB
 * error back (nor a span, nor a log line of that size); what it gets still starts with what it sent
 * and says how long that was.
 */
public final class Echo {
  private Echo() {}

  /**
   * The most characters (code points) of a sent text that are repeated: more than any tool name
   * may have (64), and room for a typical URI.
   */
  public static final int MAX_CHARS = 100;

  /**
   * {@code "sent"} in double quotes, or — longer than {@link #MAX_CHARS} — its first
   * {@code MAX_CHARS} characters, an ellipsis and the length: {@code "abc…" (100000 characters)}.
   */
  public static String quoted(String sent) {
    if (!isLong(sent)) {
      return "\"" + sent + "\"";
    }
    return "\"" + head(sent) + "\u2026\" (" + length(sent) + " characters)";
  }

  /**
   * {@code sent} as it is, or — longer than {@link #MAX_CHARS} — its first {@code MAX_CHARS}
   * characters and an ellipsis: for a data field, an attribute or a path, where the length cannot
   * follow (say it elsewhere with {@link #length}).
   */
  public static String cut(String sent) {
    return isLong(sent) ? head(sent) + "\u2026" : sent;
  }

  /**
   * A request id as a reply's text names it: a string id {@link #quoted}, a number as written (cut
   * with its digit count when longer than {@link #MAX_CHARS}).
   */
  public static String id(Object id) {
    if (id instanceof String s) {
      return quoted(s);
    }
    String written = String.valueOf(id);
    return isLong(written) ? head(written) + "\u2026 (" + length(written) + " digits)" : written;
  }

  /** Whether {@code sent} is longer than {@link #MAX_CHARS} characters, so is cut when repeated. */
  public static boolean isLong(String sent) {
    return sent.length() > MAX_CHARS && length(sent) > MAX_CHARS;
  }

  /** The length of {@code sent} in characters (code points). */
  public static int length(String sent) {
    return sent.codePointCount(0, sent.length());
  }

  private static String head(String sent) {
    return sent.substring(0, sent.offsetByCodePoints(0, MAX_CHARS));
  }
}
