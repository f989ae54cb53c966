package dev.mcpfusion.core.redact;

/** How many values and pieces of text one call masked; not thread-safe (one per call). */
public final class Tally {
  private int count;
  /** Reused by every string of the call: finding nothing allocates nothing. */
  private final Spans spans = new Spans();

  /** Counts {@code n} more masked values. */
  void add(int n) {
    count += n;
  }

  /** The span buffer, emptied. */
  Spans spans() {
    spans.clear();
    return spans;
  }

  /** The number masked so far. */
  public int count() {
    return count;
  }
}
