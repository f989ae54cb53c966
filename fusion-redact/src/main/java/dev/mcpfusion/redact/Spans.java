package dev.mcpfusion.redact;

import java.util.Arrays;

/** The {@code [start, end)} spans found in one string; merged where they overlap or touch. */
final class Spans {
  private int[] starts = new int[4];
  private int[] ends = new int[4];
  private int size;

  void add(int start, int end) {
    if (size == starts.length) {
      starts = Arrays.copyOf(starts, size * 2);
      ends = Arrays.copyOf(ends, size * 2);
    }
    starts[size] = start;
    ends[size] = end;
    size++;
  }

  boolean isEmpty() {
    return size == 0;
  }

  void clear() {
    size = 0;
  }

  /**
   * Sorts and merges the spans in place; returns how many remain (read them with {@link #start}
   * and {@link #end}).
   */
  int merge() {
    if (size <= 1) {
      return size;
    }
    // Insertion sort by start: a string rarely holds more than a handful of findings.
    for (int i = 1; i < size; i++) {
      int s = starts[i];
      int e = ends[i];
      int j = i - 1;
      while (j >= 0 && starts[j] > s) {
        starts[j + 1] = starts[j];
        ends[j + 1] = ends[j];
        j--;
      }
      starts[j + 1] = s;
      ends[j + 1] = e;
    }
    int out = 0;
    for (int i = 1; i < size; i++) {
      if (starts[i] <= ends[out]) {
        ends[out] = Math.max(ends[out], ends[i]);
      } else {
        out++;
        starts[out] = starts[i];
        ends[out] = ends[i];
      }
    }
    size = out + 1;
    return size;
  }

  int start(int i) {
    return starts[i];
  }

  int end(int i) {
    return ends[i];
  }
}
