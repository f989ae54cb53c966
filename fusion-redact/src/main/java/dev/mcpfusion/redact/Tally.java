package dev.mcpfusion.redact;

/** How many values and pieces of text one call masked; not thread-safe (one per call). */
public final class Tally {
  private int count;
  /** Reused by every string of the call, made when a finder first runs. */
  private Spans spans;
  /** The path buffer of a tree walk, reused by every walk of the call (walks never nest). */
  private String[] path;

  /** Counts {@code n} more masked values. */
  public void add(int n) {
    count += n;
  }

  /** The span buffer, emptied. */
  Spans spans() {
    if (spans == null) {
      spans = new Spans();
    }
    spans.clear();
    return spans;
  }

  /** The path buffer of a tree walk: the walk overwrites what it reads, so it need not be cleared. */
  String[] path() {
    if (path == null) {
      path = new String[16];
    }
    return path;
  }

  /** The number masked so far. */
  public int count() {
    return count;
  }
}
