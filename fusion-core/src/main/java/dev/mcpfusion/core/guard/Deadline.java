package dev.mcpfusion.core.guard;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deadline of one call (pipeline step 5), started by {@link Deadlines#start}. For each call
 * exactly one of two things happens: the call's thread {@linkplain #finish() finishes} first and
 * the deadline is disarmed, or the deadline expires first: the thread is interrupted and the expiry
 * action runs (it sends the {@code TIMEOUT} reply at once, while the handler may still be running).
 * After an expiry, whatever the call's thread produces is discarded.
 *
 * <p>A thread reuses its deadline from call to call. Each call is one generation of it: which of
 * the two happened is decided by one compare-and-set on the generation and its state together, so
 * a sweep that read an older call can never expire a newer one. After an expiry {@link #finish}
 * waits until the interrupt has been delivered and the expiry action has run, then clears the
 * interrupt, so it never outlives the call on a pooled thread.
 */
public final class Deadline {
  /** {@link #check} outcomes: a call is in force, nothing is, or the sweeper may forget this one. */
  static final int IN_FORCE = 0;
  static final int IDLE = 1;
  static final int FORGET = 2;

  private static final long RUNNING = 0;
  private static final long DONE = 1;
  private static final long EXPIRED = 2;
  private static final long STATUS = 3;

  private final Thread runner;
  /** Made for one nested call: forgotten once settled. */
  private final boolean oneOff;
  /** The generation in the high bits, its status in the low two. */
  private final AtomicLong state = new AtomicLong(DONE);
  // Written by the runner before the volatile write that arms a generation, read by the sweeper
  // after the volatile read that sees it armed.
  private long generation;
  private long timeoutMs;
  private Runnable onExpiry;
  // The sweeper's own: the generation it last saw armed, and when that one is due. The sweeper
  // stamps the due time when it first sees a generation, so arming reads no clock: a call's
  // deadline counts from at most one tick after it started, never from before.
  private long stamped = -1;
  private long due;
  /** The last generation whose expiry was delivered; guarded by {@code this}. */
  private long delivered = -1;

  Deadline(Thread runner, boolean oneOff) {
    this.runner = runner;
    this.oneOff = oneOff;
  }

  /** Arms the next generation; only on the runner's thread, when none is in force. */
  void arm(long timeoutMs, Runnable onExpiry) {
    this.timeoutMs = timeoutMs;
    this.onExpiry = onExpiry;
    // A release store: the sweeper, whose read of the state acquires, sees the fields above with
    // it. No full fence is needed here: the sweeper may see the call a moment later (its deadline
    // counts from the sweep that first sees it), and finish() settles the call by compare-and-set.
    state.setRelease(++generation << 2 | RUNNING);
  }

  /** Whether {@code thread} is the one this deadline times. */
  boolean runsOn(Thread thread) {
    return runner == thread;
  }

  /** The id of the thread this deadline times. */
  long runnerId() {
    return runner.getId();
  }

  /** Whether the thread this deadline times has not ended. */
  boolean runnerAlive() {
    return runner.isAlive();
  }

  /** Whether a call is running under this deadline. */
  boolean inForce() {
    return (state.get() & STATUS) == RUNNING;
  }

  /** Runs on the sweeper: expires the generation in force if it is due at {@code now}. */
  int check(long now) {
    long s = state.get();
    if ((s & STATUS) != RUNNING) {
      return oneOff || !runner.isAlive() ? FORGET : IDLE;
    }
    long armed = s >>> 2;
    if (armed != stamped) {
      stamped = armed;
      due = now + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
      return IN_FORCE;
    }
    if (now - due < 0) {
      return IN_FORCE;
    }
    // Fails if the call finished (or a newer one started) since the read above.
    if (!state.compareAndSet(s, (s & ~STATUS) | EXPIRED)) {
      return IN_FORCE;
    }
    try {
      runner.interrupt();
      Runnable action = onExpiry;
      if (action != null) {
        action.run();
      }
    } finally {
      synchronized (this) {
        delivered = s >>> 2;
        notifyAll();
      }
    }
    return oneOff ? FORGET : IDLE;
  }

  /**
   * Called by the call's thread when the call is done (whatever its outcome).
   *
   * @return {@code true} when the call finished in time; {@code false} when the deadline expired
   *     first (the result must be discarded; the expiry action has run, and the thread's interrupt
   *     has been cleared)
   */
  public boolean finish() {
    if (state.compareAndSet(generation << 2 | RUNNING, generation << 2 | DONE)) {
      // Settled: the sweeper no longer reads it, and a reused deadline must not keep the call's
      // reply sink reachable.
      onExpiry = null;
      return true;
    }
    synchronized (this) {
      // The expiry's reply must be handed over before the caller learns it was sent: a transport
      // that finds no reply when dispatch returns would otherwise answer the request itself.
      while (delivered != generation) {
        try {
          wait();
        } catch (InterruptedException expected) {
          // the expiry interrupted this thread; cleared below
        }
      }
    }
    onExpiry = null;
    Thread.interrupted();
    return false;
  }

  /** Whether the deadline of the current (or last) call expired before the call finished. */
  public boolean expired() {
    return (state.get() & STATUS) == EXPIRED;
  }

  /** The deadline in milliseconds from the start of the call. */
  public long timeoutMs() {
    return timeoutMs;
  }
}
