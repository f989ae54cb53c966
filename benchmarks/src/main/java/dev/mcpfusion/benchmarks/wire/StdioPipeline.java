package dev.mcpfusion.benchmarks.wire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * A stdio client that keeps up to a given number of {@code tools/call} requests in flight on one
 * server process, one JSON line per message, matching each answer to its request by JSON-RPC id
 * (a server may answer out of order). With one in flight it is a sequential client, and as a
 * {@link McpCaller} it makes one call at a time. Not thread-safe: one thread drives it.
 */
final class StdioPipeline implements McpCaller {
  private final Process process;
  private final OutputStream out;
  private final BufferedReader in;
  private final byte[][] get = Tool.GET_INVOICE.body(false);
  private final byte[][] list = Tool.LIST_INVOICES.body(false);
  private long nextId = 1_000_000;

  /** The result of one {@link #run}: how many calls were answered, and in how long. */
  record Run(long calls, long nanos, boolean timedOut) {}

  private StdioPipeline(Process process) {
    this.process = process;
    this.out = process.getOutputStream();
    this.in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8),
        64 * 1024);
  }

  /** A client of {@code process} (a stdio MCP server), past its handshake. */
  static StdioPipeline open(Process process) throws IOException {
    StdioPipeline pipeline = new StdioPipeline(process);
    try {
      McpCaller.stdioHandshake(pipeline.out, pipeline.in);
    } catch (IOException e) {
      pipeline.close();
      throw e;
    }
    return pipeline;
  }

  @Override
  public String call(long id, Tool tool) throws IOException {
    send(McpCaller.withId(tool == Tool.GET_INVOICE ? get : list, id));
    out.flush();
    return response();
  }

  /**
   * Makes {@code calls} {@code get_invoice} calls with up to {@code inFlight} unanswered at any
   * time; sends no new request once {@code deadlineNanos} ({@link System#nanoTime}) has passed, but
   * still reads the answers of those already sent. Fails on any answer that is not a
   * {@code get_invoice} result, or whose id was not asked for.
   */
  Run run(long calls, int inFlight, long deadlineNanos) throws IOException {
    Set<Long> pending = new HashSet<>(inFlight * 2);
    long sent = 0;
    long answered = 0;
    boolean timedOut = false;
    long t0 = System.nanoTime();
    while (answered < sent || sent < calls) {
      // Top the window up, then flush once: requests written together travel together, as a
      // pipelining client would send them.
      boolean wrote = false;
      while (sent < calls && pending.size() < inFlight) {
        if (System.nanoTime() >= deadlineNanos) {
          timedOut = true;
          calls = sent;
          break;
        }
        long id = nextId++;
        pending.add(id);
        send(McpCaller.withId(get, id));
        sent++;
        wrote = true;
      }
      if (wrote) {
        out.flush();
      }
      if (pending.isEmpty()) {
        break;
      }
      String line = response();
      long id = idOf(line);
      if (!pending.remove(id)) {
        throw new IOException("An answer to no pending request: " + line);
      }
      if (!line.contains("INV-") || line.contains("\"isError\":true") || line.contains("\"error\":{")) {
        throw new IOException("Unexpected answer: " + line);
      }
      answered++;
    }
    return new Run(answered, System.nanoTime() - t0, timedOut);
  }

  private void send(byte[] request) throws IOException {
    out.write(request);
    out.write('\n');
  }

  /** The next JSON-RPC response line; notifications and log lines in between are skipped. */
  private String response() throws IOException {
    while (true) {
      String line = in.readLine();
      if (line == null) {
        throw new IOException("The server closed stdout");
      }
      if (line.startsWith("{") && (line.contains("\"result\"") || line.contains("\"error\""))) {
        return line;
      }
    }
  }

  /**
   * The numeric JSON-RPC id of a response. The only {@code "id":} followed by a digit: the
   * invoice's own {@code "id"} is a string, and inside the text block its quotes are escaped.
   */
  private static long idOf(String line) throws IOException {
    int at = -1;
    while ((at = line.indexOf("\"id\":", at + 1)) >= 0) {
      int from = at + 5;
      int to = from;
      while (to < line.length() && Character.isDigit(line.charAt(to))) {
        to++;
      }
      if (to > from) {
        return Long.parseLong(line, from, to, 10);
      }
    }
    throw new IOException("An answer without a numeric id: " + line);
  }

  /** Closes the server's stdin (a stdio server exits on it) and waits for the process to end. */
  @Override
  public void close() {
    McpCaller.closeStdio(out, process);
  }
}
