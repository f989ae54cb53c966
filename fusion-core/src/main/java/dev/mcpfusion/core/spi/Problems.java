package dev.mcpfusion.core.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Collects every input problem of one call, so the agent gets them all in one
 * {@code <validation_error>}. Not thread-safe: one instance per call.
 */
public final class Problems {
  /** The {@link Problem#sent()} value of a field that was not sent at all (or sent as {@code null}). */
  public static final Object MISSING = new Object() {
    @Override
    public String toString() {
      return "MISSING";
    }
  };

  private final List<Problem> problems = new ArrayList<>();

  /** Adds a problem without hint. */
  public void add(String path, String message, Object sent) {
    add(path, message, sent, null);
  }

  /** Adds a problem. */
  public void add(String path, String message, Object sent, String hint) {
    problems.add(new Problem(path, message, sent, hint));
  }

  /**
   * Whether a problem was already recorded for {@code path}; constraint checks skip such fields so
   * a field reports one problem, the first.
   */
  public boolean has(String path) {
    for (Problem p : problems) {
      if (p.path().equals(path)) {
        return true;
      }
    }
    return false;
  }

  /** How many problems were recorded; a mark for {@link #relabelSince}. */
  public int size() {
    return problems.size();
  }

  /**
   * Gives every problem recorded after {@code mark} the message {@code message} (a constraint's own
   * {@code message}, interpolated at compile time); its path, sent value and hint stay.
   */
  public void relabelSince(int mark, String message) {
    for (int i = mark; i < problems.size(); i++) {
      Problem p = problems.get(i);
      problems.set(i, new Problem(p.path(), message, p.sent(), p.hint()));
    }
  }

  /** Whether no problem was recorded. */
  public boolean isEmpty() {
    return problems.isEmpty();
  }

  /** The problems, in the order they were found. */
  public List<Problem> list() {
    return Collections.unmodifiableList(problems);
  }
}
