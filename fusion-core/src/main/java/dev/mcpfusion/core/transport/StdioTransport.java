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
import java.util.concurrent.Semaphore;
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
 * <p>Calls run concurrently, each on the thread that read it (leader/followers): while other calls
 * wait for their replies or more input is already there, the reading thread passes the input to
 * another one before answering, so the calls in flight run at once and no call waits for a hand-off
 * to a pool. When neither (a client that calls one at a time; a call whose reply is out counts as
 * done, though its thread may still be finishing), the reading thread answers and reads on, so no
 * thread is woken per call; a watchdog passes the input on if that call runs longer than a
 * millisecond, so a slow call holds up the input about that long, not for its whole run. Daemon
 * threads; beyond a few spares, a thread ends when its call is answered. At end of input, answers
 * in progress are finished (bounded by {@code drainTimeout}) before {@link #serve} returns.
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

  /** How long a call answered on the thread that read it holds up the input before it is passed on. */
  private static final long HAND_ON_NANOS = 1_000_000;

  /** How long after the last such call the watchdog stops polling and parks until the next. */
  private static final long IDLE_NANOS = 50_000_000;

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
  /** Held by the one thread reading input (a permit, not a lock: the watchdog passes it on). */
  private final Semaphore readPermit = new Semaphore(1);
  private final Watchdog watchdog = new Watchdog();
  /** Written only by the thread holding the read permit. */
  private volatile long answeredWhereRead;
  /** Serving threads not answering a call: the reader and those waiting to read. */
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger threads = new AtomicInteger();
  /** Serving threads alive now; never more than {@link #maxThreads}. */
  private final AtomicInteger alive = new AtomicInteger();
  private final AtomicInteger peakAlive = new AtomicInteger();
  private final int maxThreads;
  /** Calls read and handed to the edge whose dispatch has not returned yet. */
  private final AtomicInteger answering = new AtomicInteger();
  /**
   * Calls read whose reply is not written yet (or whose dispatch has not returned, for a reply
   * written elsewhere): whether a call is alone. Less than {@link #answering} while a call's
   * thread finishes after its reply, which a fast client has already answered with its next call.
   */
  private final AtomicInteger unreplied = new AtomicInteger();
  private final String threadPrefix = "fusion-stdio-" + TRANSPORTS.incrementAndGet() + "-";
  private final Inbound inbound = Inbound.stdio();
  private final Sink lines = new Sink() {
    @Override
    public void reply(Object id, int errorCode, byte[] json) {
      // Before the write: the client may send its next call the moment it reads this reply.
      if (Thread.currentThread() instanceof ServingThread self && self.replyPending) {
        self.replyPending = false;
        unreplied.decrementAndGet();
      }
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

  /**
   * Calls the thread that read them started to answer itself, without passing the input on first
   * (no other call's reply was still to come and no line was waiting); the watchdog may have
   * passed it on later, if the call was slow.
   */
  public long callsAnsweredWhereRead() {
    return answeredWhereRead;
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
      watchdog.stop();
      session.close();
    }
    IOException failure = readFailure;
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * The loop every serving thread runs (leader/followers): the thread holding the read permit
   * reads one line and parses it. A message that runs a call ({@link Edge#runsCall}) is answered
   * after the permit is passed on, with another thread ready to take it, so calls in flight run at
   * once; or, when no other call is in flight and no further input is there yet, by this thread
   * still holding the permit (the watchdog passes it on if the call is slow). Everything else (the
   * handshake, notifications, the client's responses) is dispatched holding the permit, in the
   * order it arrived.
   */
  private void readAndAnswer() {
    ServingThread self = (ServingThread) Thread.currentThread();
    waiting.incrementAndGet();
    boolean reading = false; // holds the read permit from the last round: the inline call kept it
    while (true) {
      Message message;
      long inline = 0;
      if (!reading) {
        readPermit.acquireUninterruptibly();
      }
      reading = false;
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
          reading = true;
          continue;
        }
        // Counted before the permit is passed on, so end of input read by another thread
        // meanwhile still waits for this call.
        answering.incrementAndGet();
        // Alone unless another call's reply is still to come: a thread finishing after its reply
        // does not count, or a client calling one at a time would never be answered here again.
        self.replyPending = true;
        boolean alone = unreplied.incrementAndGet() == 1;
        int others = waiting.decrementAndGet();
        if (alone && !reader.buffered() && nothingAvailable()) {
          // No other call waiting for its reply and no line waiting (a client calling one at a
          // time): answer it here and read on after, so no thread is woken per call; the watchdog
          // passes the input on if it is slow. With calls in flight more lines are on their way, and another
          // thread reads them meanwhile.
          inline = watchdog.watch();
          answeredWhereRead++;
        } else if (others == 0 && alive.get() < maxThreads) {
          startFollower();
        }
      } finally {
        if (!reading && inline == 0) {
          readPermit.release();
        }
      }
      try {
        edge.dispatch(message, inbound, session, lines);
      } finally {
        if (self.replyPending) { // answered later, or by another thread
          self.replyPending = false;
          unreplied.decrementAndGet();
        }
        answering.decrementAndGet();
      }
      if (inline != 0 && watchdog.done(inline)) {
        waiting.incrementAndGet();
        reading = true; // the permit was never passed on
        continue;
      }
      if (waiting.get() >= SPARE_THREADS) {
        return; // enough threads wait for input already
      }
      waiting.incrementAndGet();
    }
  }

  /** Whether the input has no byte ready to read now (an input that cannot tell counts as empty). */
  private boolean nothingAvailable() {
    try {
      return in.available() <= 0;
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * Passes the input on from a call answered on the thread that read it ({@link #watch}) once the
   * call has run for {@link #HAND_ON_NANOS}: a slow call then holds up the calls behind it for about
   * a millisecond, not for its whole run. It polls only while calls are answered this way, and parks
   * for good after {@link #IDLE_NANOS} without one, so an idle connector costs no wake-ups.
   */
  private final class Watchdog implements Runnable {
    /** When the call answered on its reading thread started ({@code System.nanoTime}, never 0); 0 when none. */
    private final java.util.concurrent.atomic.AtomicLong since = new java.util.concurrent.atomic.AtomicLong();
    private volatile long lastWatched;
    private volatile boolean parked;
    private volatile boolean stopped;
    private volatile Thread thread;

    /** Marks a call answered on the thread that holds the read permit; returns its stamp. */
    long watch() {
      long now = System.nanoTime();
      long stamp = now == 0 ? 1 : now;
      since.set(stamp);
      lastWatched = stamp;
      if (thread == null) {
        thread = new Thread(this, threadPrefix + "watchdog");
        thread.setDaemon(true);
        thread.start();
      } else if (parked) {
        parked = false;
        java.util.concurrent.locks.LockSupport.unpark(thread);
      }
      return stamp;
    }

    /** After the call: true when its thread still holds the read permit (it was not passed on). */
    boolean done(long stamp) {
      return since.compareAndSet(stamp, 0);
    }

    @Override
    public void run() {
      while (!stopped) {
        long stamp = since.get();
        long now = System.nanoTime();
        if (stamp != 0 && now - stamp >= HAND_ON_NANOS && since.compareAndSet(stamp, 0)) {
          handOn();
        } else if (stamp == 0 && now - lastWatched >= IDLE_NANOS) {
          parked = true;
          if (since.get() == 0) { // a call marked meanwhile has seen parked, or is seen here
            java.util.concurrent.locks.LockSupport.park(this);
          }
          parked = false;
          continue;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(this, HAND_ON_NANOS);
      }
    }

    /** Ends the watchdog (the transport has stopped serving). */
    void stop() {
      stopped = true;
      Thread watching = thread;
      if (watching != null) {
        java.util.concurrent.locks.LockSupport.unpark(watching);
      }
    }

    /** The slow call keeps running; another thread takes over the input. */
    private void handOn() {
      if (waiting.get() == 0 && alive.get() < maxThreads) {
        startFollower();
      }
      readPermit.release();
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

  /** A serving thread, which knows whether the call it answers has had its reply. */
  private static final class ServingThread extends Thread {
    /** Written and read only by this thread. */
    boolean replyPending;

    ServingThread(Runnable serve, String name) {
      super(serve, name);
    }
  }

  private void startFollower() {
    peakAlive.accumulateAndGet(alive.incrementAndGet(), Math::max);
    Thread follower = new ServingThread(() -> {
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
}
