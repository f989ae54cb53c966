package dev.mcpfusion.core.edge;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Captures what the test logger (slf4j-simple, which writes each event to the current
 * {@code System.err}) prints, to count log events: one event is one line that starts with its
 * thread in brackets and a level; a stack trace follows on lines of its own.
 */
final class StderrLog implements AutoCloseable {
  private final PrintStream original;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

  private StderrLog() {
    this.original = System.err;
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
  }

  static StderrLog capture() {
    return new StderrLog();
  }

  /** The first line of every WARN or ERROR event so far. */
  List<String> events() {
    return buffer.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.matches("^\\[[^\\]]*\\] (WARN|ERROR) .*"))
        .toList();
  }

  @Override
  public void close() {
    System.setErr(original);
    original.print(buffer.toString(StandardCharsets.UTF_8));
  }
}
