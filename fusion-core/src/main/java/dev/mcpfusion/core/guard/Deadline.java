package dev.mcpfusion.core.guard;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The deadline of one call (pipeline step 5), started by {@link Deadlines#start}. Exactly one of
 * two things happens: the call's thread {@linkplain #finish() finishes} first and the deadline is
 * disarmed, or the deadline expires first: the thread is interrupted and the expiry action runs
 * (it sends the {@code TIMEOUT} reply at once, while the handler may still be running). After an
 * expiry, whatever the call's thread produces is discarded.
 *
 * <p>Which one happened is decided by one compare-and-set; after an expiry {@link #finish} waits
 * until the interrupt has been delivered and the expiry action has run, then clears the interrupt,
 * so it never outlives the call on a pooled thread.
 */
public final class Deadline {
  private static final int RUNNING = 0;
  private static final int DONE = 1;
  private static final int EXPIRED = 2;

  private final long timeoutMs;
  private final long due;
  private final Thread runner;
  private final Runnable onExpiry;
  private final AtomicInteger state = new AtomicInteger(RUNNING);
  /** Whether the expiry action has run (only after an expiry); guarded by {@code this}. */
  private boolean delivered;

  Deadline(long timeoutMs, long due, Thread runner, Runnable onExpiry) {
    this.timeoutMs = timeoutMs;
    this.due = due;
    this.runner = runner;
    this.onExpiry = onExpiry;
  }

  /** When it is due, in {@link System#nanoTime} terms. */
  long due() {
    return due;
  }

  /** Whether the call finished or the deadline expired (the timer forgets it then). */
  boolean settled() {
    return state.get() != RUNNING;
  }

  /** Runs on the timer thread. */
  void expire() {
    if (!state.compareAndSet(RUNNING, EXPIRED)) {
      return;
    }
    try {
      runner.interrupt();
      if (onExpiry != null) {
        onExpiry.run();
      }
    } finally {
      synchronized (this) {
        delivered = true;
        notifyAll();
      }
    }
  }

  /**
   * Called by the call's thread when the call is done (whatever its outcome).
   *
   * @return {@code true} when the call finished in time; {@code false} when the deadline expired
   *     first (the result must be discarded; the expiry action has run, and the thread's interrupt
   *     has been cleared)
   */
  public boolean finish() {
    if (state.compareAndSet(RUNNING, DONE)) {
      return true;
    }
    synchronized (this) {
      // The expiry's reply must be handed over before the caller learns it was sent: a transport
      // that finds no reply when dispatch returns would otherwise answer the request itself.
      while (!delivered) {
        try {
          wait();
        } catch (InterruptedException expected) {
          // the expiry interrupted this thread; cleared below
        }
      }
    }
    Thread.interrupted();
    return false;
  }

  /** Whether the deadline expired before the call finished. */
  public boolean expired() {
    return state.get() == EXPIRED;
  }

  /** The deadline in milliseconds from the start of the call. */
  public long timeoutMs() {
    return timeoutMs;
  }
}
