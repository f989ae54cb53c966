package dev.mcpfusion.core.redact;

/** How many values and pieces of text one call masked; not thread-safe (one per call). */
public final class Tally {
  private int count;

  /** Counts {@code n} more masked values. */
  void add(int n) {
    count += n;
  }

  /** The number masked so far. */
  public int count() {
    return count;
  }
}
