package dev.mcpfusion.core.transport;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits {@link StdioTransport}'s input into lines of bytes without ever holding more than the
 * limit of one: of a longer line only the first {@link StdioTransport#OVERSIZED_PREFIX} bytes are
 * kept (to find its id), the rest is skipped up to its newline, so a client cannot make the server
 * buffer an unbounded message. Used by one thread at a time (the one holding the read permit).
 */
final class LineReader {
  private final InputStream in;
  private final int max;
  private final byte[] buffer = new byte[64 * 1024];
  private int position;
  private int limit;
  private byte[] line = new byte[8192];
  private int length;
  private boolean oversized;

  LineReader(InputStream in, int max) {
    this.in = in;
    this.max = max;
  }

  /** Reads the next line; false at end of input. */
  boolean next() throws IOException {
    length = 0;
    oversized = false;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer, 0, buffer.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          trimCarriageReturn();
          return any;
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      append(start, position - start);
      if (position < limit) {
        position++; // the newline
        trimCarriageReturn();
        return true;
      }
    }
  }

  private void append(int start, int count) {
    if (oversized) {
      return;
    }
    if (length + count > max + 1) {
      oversized = true;
      length = Math.min(length, StdioTransport.OVERSIZED_PREFIX);
      int keep = Math.min(count, Math.max(0, StdioTransport.OVERSIZED_PREFIX - length));
      ensure(length + keep);
      System.arraycopy(buffer, start, line, length, keep);
      length += keep;
      return;
    }
    ensure(length + count);
    System.arraycopy(buffer, start, line, length, count);
    length += count;
  }

  private void ensure(int capacity) {
    if (capacity > line.length) {
      line = Arrays.copyOf(line, Math.max(capacity, Math.min(line.length * 2, max + 2)));
    }
  }

  private void trimCarriageReturn() {
    if (!oversized && length > 0 && line[length - 1] == '\r') {
      length--;
    }
    if (!oversized && length > max) {
      oversized = true;
      length = Math.min(length, StdioTransport.OVERSIZED_PREFIX);
    }
  }

  byte[] line() {
    return line;
  }

  /** Whether bytes already read from the input wait in the buffer (the start of another line). */
  boolean buffered() {
    return position < limit;
  }

  int length() {
    return length;
  }

  boolean oversized() {
    return oversized;
  }
}
