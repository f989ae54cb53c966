package dev.mcpfusion.core.transport;

import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.core.edge.Sink;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
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
 * <p>Calls run concurrently, each on the thread that read it: before answering a call, the reading
 * thread passes the input to another one (leader/followers), so one slow call never holds up the
 * calls behind it and no call waits for a hand-off to a pool. Daemon threads; beyond a few spares,
 * a thread ends when its call is answered. At end of input, answers in progress are finished
 * (bounded by {@code drainTimeout}) before {@link #serve} returns.
 *
 * <p>The threads are bounded: by what the server's concurrency gates admit at once (running and
 * waiting, {@link Edge#callCapacity}) plus one, so that a call beyond that is still read and turned
 * away ({@code SERVER_BUSY}) at once; or by {@link #MAX_THREADS} when some action has no gate. With
 * every thread busy the last one answers its call before reading on, and further input waits in
 * the pipe (back-pressure) rather than in a queue of ours.
 */
public final class StdioTransport {
  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  /** The longest line accepted, in bytes; a longer one is answered as an invalid request. */
  public static final int MAX_LINE_BYTES = 4 * 1024 * 1024;

  /**
   * Threads kept waiting for input after a burst of calls; the rest end. More than one: a thread
   * that just answered a call may not be back yet when the next line arrives, and a spare then
   * saves starting a thread.
   */
  private static final int SPARE_THREADS = 4;

  /** The most serving threads when the server's concurrency gates do not bound its calls. */
  public static final int MAX_THREADS = 256;

  /** How much of an oversized line is kept to find its id. */
  static final int OVERSIZED_PREFIX = 64 * 1024;

  private static final AtomicInteger TRANSPORTS = new AtomicInteger();

  private final InputStream in;
  private final OutputStream out;
  private final Edge edge;
  private final Duration drainTimeout;
  private final int maxLineBytes;
  private final Object writeLock = new Object();
  private final java.io.BufferedOutputStream buffered;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ReentrantLock readLock = new ReentrantLock();
  /** Serving threads not answering a call: the reader and those waiting to read. */
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger threads = new AtomicInteger();
  /** Serving threads alive now; never more than {@link #maxThreads}. */
  private final AtomicInteger alive = new AtomicInteger();
  private final AtomicInteger peakAlive = new AtomicInteger();
  private final int maxThreads;
  /** Calls read and handed to the edge whose dispatch has not returned yet. */
  private final AtomicInteger answering = new AtomicInteger();
  private final String threadPrefix = "fusion-stdio-" + TRANSPORTS.incrementAndGet() + "-";
  private final Inbound inbound = Inbound.stdio();
  private final Sink lines = new Sink() {
    @Override
    public void reply(Object id, int errorCode, byte[] json) {
      write(json);
    }

    @Override
    public void push(byte[] json) {
      write(json);
    }
  };
  private EdgeSession session;
  private LineReader reader;
  private boolean endOfInput;
  private final java.util.concurrent.CountDownLatch inputEnded = new java.util.concurrent.CountDownLatch(1);
  private volatile IOException readFailure;

  /** A transport over the given streams, in front of {@code edge}. */
  public StdioTransport(InputStream in, OutputStream out, Edge edge, Duration drainTimeout) {
    this(in, out, edge, drainTimeout, MAX_LINE_BYTES);
  }

  /** As above, with another line-length limit (tests). */
  public StdioTransport(InputStream in, OutputStream out, Edge edge, Duration drainTimeout,
      int maxLineBytes) {
    this.in = in;
    this.out = out;
    this.buffered = new java.io.BufferedOutputStream(out, 64 * 1024);
    this.edge = edge;
    this.drainTimeout = drainTimeout;
    this.maxLineBytes = maxLineBytes;
    int capacity = edge.callCapacity();
    this.maxThreads = capacity >= MAX_THREADS - 1 ? MAX_THREADS : Math.max(2, capacity + 1);
  }

  /** The most serving threads this transport starts. */
  public int maxThreads() {
    return maxThreads;
  }

  /** The most serving threads that were alive at once so far. */
  public int peakThreads() {
    return peakAlive.get();
  }

  /**
   * Reads messages until end of input, then waits for answers in progress (at most the drain
   * timeout) and returns. Blocks the calling thread; serving threads of their own do the work.
   */
  public void serve() throws IOException {
    // Calls run on the thread that read them: the reader hands the input to another
    // thread first, so no call waits for a hand-off and the next line is read meanwhile.
    session = edge.openSession(lines);
    reader = new LineReader(in, maxLineBytes);
    try {
      startFollower();
      try {
        inputEnded.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (!drain()) {
        log.warn("{} call(s) still in progress after {} at end of input",
            Math.max(answering.get(), session.openRequests()), drainTimeout);
      }
    } finally {
      session.close();
    }
    IOException failure = readFailure;
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * The loop every serving thread runs (leader/followers): the thread holding the read lock reads
   * one line and parses it; a message that runs a call ({@link Edge#runsCall}) is answered after
   * the lock is released, with another thread ready to take it, so calls in flight run at once;
   * everything else (the handshake, notifications, the client's responses) is dispatched under the
   * lock, in the order it arrived.
   */
  private void readAndAnswer() {
    waiting.incrementAndGet();
    while (true) {
      Message message;
      readLock.lock();
      try {
        if (endOfInput || closed.get()) {
          waiting.decrementAndGet();
          inputEnded.countDown();
          return;
        }
        message = next();
        if (message == null) {
          endOfInput = true;
          waiting.decrementAndGet();
          inputEnded.countDown();
          return;
        }
        if (!edge.runsCall(message, inbound)) {
          edge.dispatch(message, inbound, session, lines);
          continue;
        }
        // Counted before the lock is released, so end of input read by another thread meanwhile
        // still waits for this call.
        answering.incrementAndGet();
        if (waiting.decrementAndGet() == 0 && alive.get() < maxThreads) {
          startFollower();
        }
      } finally {
        readLock.unlock();
      }
      try {
        edge.dispatch(message, inbound, session, lines);
      } finally {
        answering.decrementAndGet();
      }
      if (waiting.get() >= SPARE_THREADS) {
        return; // enough threads wait for input already
      }
      waiting.incrementAndGet();
    }
  }

  /** Waits until every call read has been answered (and the session is idle), at most the drain timeout. */
  private boolean drain() {
    long deadline = System.nanoTime() + drainTimeout.toNanos();
    while (answering.get() > 0) {
      if (System.nanoTime() >= deadline) {
        return false;
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return session.awaitIdle(java.time.Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }

  /** The next message (parsed, or the error for an oversized line), or {@code null} at end of input. */
  private Message next() {
    try {
      while (reader.next()) {
        if (reader.length() == 0) {
          continue; // a bare newline is framing, not a message
        }
        return reader.oversized()
            ? edge.oversized(reader.line(), reader.length(), maxLineBytes)
            : edge.read(reader.line(), reader.length());
      }
      return null;
    } catch (IOException e) {
      readFailure = e;
      return null;
    }
  }

  private void startFollower() {
    peakAlive.accumulateAndGet(alive.incrementAndGet(), Math::max);
    Thread follower = new Thread(() -> {
      try {
        readAndAnswer();
      } catch (RuntimeException | Error e) {
        // The edge answers and logs every failure itself; this keeps serve() from waiting for ever.
        log.error("A stdio serving thread failed; ending input", e);
        closed.set(true);
        inputEnded.countDown();
      } finally {
        alive.decrementAndGet();
      }
    }, threadPrefix + threads.incrementAndGet());
    follower.setDaemon(true);
    follower.start();
  }

  private void write(byte[] json) {
    synchronized (writeLock) {
      if (closed.get()) {
        return;
      }
      try {
        // Through a buffer, flushed per message: one write system call for the message and its
        // newline (a reply split in two also costs the client a second wake-up), and no copy.
        buffered.write(json);
        buffered.write('\n');
        buffered.flush();
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
