package dev.mcpfusion.core.transport;

import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.core.edge.Outbound;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Newline-delimited JSON-RPC over a byte stream pair (stdio): framing only. Each line goes to the
 * {@link Edge} as bytes (UTF-8, whatever the platform charset), which parses it once and answers;
 * each reply is written whole, one per line, under one lock, in whatever order calls finish.
 *
 * <p>Why not the SDK's stdio provider: it funnels every response through one Reactor sink that
 * drops responses under concurrent load, and any unreadable line ends it.
 *
 * <p>Calls run concurrently, each on a thread of its own (daemon threads, reused while busy,
 * reclaimed after 60 s idle), so one slow call never holds up the calls behind it. At end of input,
 * answers in progress are finished (bounded by {@code drainTimeout}) before {@link #serve} returns.
 */
public final class StdioTransport {
  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  /** The longest line accepted, in bytes; a longer one is answered as an invalid request. */
  public static final int MAX_LINE_BYTES = 4 * 1024 * 1024;

  /** How much of an oversized line is kept to find its id. */
  static final int OVERSIZED_PREFIX = 64 * 1024;

  private static final AtomicInteger TRANSPORTS = new AtomicInteger();

  private final InputStream in;
  private final OutputStream out;
  private final Edge edge;
  private final Duration drainTimeout;
  private final int maxLineBytes;
  private final Object writeLock = new Object();
  private final AtomicBoolean closed = new AtomicBoolean();

  /** A transport over the given streams, in front of {@code edge}. */
  public StdioTransport(InputStream in, OutputStream out, Edge edge, Duration drainTimeout) {
    this(in, out, edge, drainTimeout, MAX_LINE_BYTES);
  }

  /** As above, with another line-length limit (tests). */
  public StdioTransport(InputStream in, OutputStream out, Edge edge, Duration drainTimeout,
      int maxLineBytes) {
    this.in = in;
    this.out = out;
    this.edge = edge;
    this.drainTimeout = drainTimeout;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Reads messages until end of input, then waits for answers in progress and returns. Blocks the
   * calling thread.
   */
  public void serve() throws IOException {
    ExecutorService calls = Executors.newCachedThreadPool(daemons());
    Outbound lines = new Outbound() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        write(json);
      }

      @Override
      public void push(byte[] json) {
        write(json);
      }
    };
    EdgeSession session = edge.openSession(lines, calls);
    Inbound inbound = Inbound.stdio();
    try {
      LineReader reader = new LineReader(in, maxLineBytes);
      while (!closed.get() && reader.next()) {
        if (reader.length() == 0) {
          continue; // a bare newline is framing, not a message
        }
        Message message = reader.oversized()
            ? edge.oversized(reader.line(), reader.length(), maxLineBytes)
            : edge.read(reader.line(), reader.length());
        edge.dispatch(message, inbound, session, lines);
      }
      if (!session.awaitIdle(drainTimeout)) {
        log.warn("{} call(s) still in progress after {} at end of input", session.openRequests(),
            drainTimeout);
      }
    } finally {
      session.close();
      calls.shutdown();
      try {
        calls.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static ThreadFactory daemons() {
    String prefix = "fusion-stdio-" + TRANSPORTS.incrementAndGet() + "-call-";
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private void write(byte[] json) {
    synchronized (writeLock) {
      if (closed.get()) {
        return;
      }
      try {
        out.write(json);
        out.write('\n');
        out.flush();
      } catch (IOException e) {
        log.warn("stdout is closed; stopping", e);
        closed.set(true);
      }
    }
  }

  /**
   * Splits input into lines of bytes without ever holding more than the limit of one: of a longer
   * line only the first {@link #OVERSIZED_PREFIX} bytes are kept (to find its id), the rest is
   * skipped up to its newline, so a client cannot make the server buffer an unbounded message.
   */
  static final class LineReader {
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
        length = Math.min(length, OVERSIZED_PREFIX);
        int keep = Math.min(count, Math.max(0, OVERSIZED_PREFIX - length));
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
        length = Math.min(length, OVERSIZED_PREFIX);
      }
    }

    byte[] line() {
      return line;
    }

    int length() {
      return length;
    }

    boolean oversized() {
      return oversized;
    }
  }
}
