package dev.mcpfusion.core.trace;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Stack traces for span events, with or without messages. {@link Throwable#printStackTrace()}
 * always prints each {@code toString()}, which carries the message; a span must not, by default.
 */
public final class StackTraces {
  private StackTraces() {}

  /**
   * The stack of {@code t} in the JDK's layout (frames, {@code Caused by:}, {@code Suppressed:}),
   * headed by class names only, or by {@code toString()} when {@code withMessages} is true.
   */
  public static String of(Throwable t, boolean withMessages) {
    StringBuilder out = new StringBuilder();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    append(out, t, "", "", null, withMessages, seen);
    return out.toString();
  }

  private static void append(StringBuilder out, Throwable t, String caption, String indent,
      StackTraceElement[] enclosing, boolean withMessages, Set<Throwable> seen) {
    if (!seen.add(t)) {
      out.append(indent).append(caption).append("[CIRCULAR REFERENCE: ")
          .append(t.getClass().getName()).append("]\n");
      return;
    }
    out.append(indent).append(caption).append(withMessages ? t.toString() : t.getClass().getName())
        .append('\n');
    StackTraceElement[] frames = t.getStackTrace();
    int unique = frames.length;
    if (enclosing != null) {
      int j = enclosing.length - 1;
      while (unique > 0 && j >= 0 && frames[unique - 1].equals(enclosing[j])) {
        unique--;
        j--;
      }
    }
    for (int i = 0; i < unique; i++) {
      out.append(indent).append("\tat ").append(frames[i]).append('\n');
    }
    if (unique < frames.length) {
      out.append(indent).append("\t... ").append(frames.length - unique).append(" more\n");
    }
    for (Throwable suppressed : t.getSuppressed()) {
      append(out, suppressed, "Suppressed: ", indent + "\t", frames, withMessages, seen);
    }
    Throwable cause = t.getCause();
    if (cause != null) {
      append(out, cause, "Caused by: ", indent, frames, withMessages, seen);
    }
  }
}
