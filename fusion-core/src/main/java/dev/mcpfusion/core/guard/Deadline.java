package dev.mcpfusion.core.guard;

/**
 * The deadline of one call (pipeline step 5), started by {@link Deadlines#start}. Exactly one of
 * two things happens: the call's thread {@linkplain #finish() finishes} first and the deadline is
 * disarmed, or the deadline expires first: the thread is interrupted and the expiry action runs
 * (it sends the {@code TIMEOUT} reply at once, while the handler may still be running). After an
 * expiry, whatever the call's thread produces is discarded.
 *
 * <p>The interrupt is delivered under the same lock that {@link #finish} takes, and
 * {@code finish} clears it, so an expiry's interrupt never outlives the call on a pooled thread.
 */
public final class Deadline {
  private static final int RUNNING = 0;
  private static final int DONE = 1;
  private static final int EXPIRED = 2;

  private final Deadlines owner;
  private final long timeoutMs;
  private final long due;
  private final Thread runner;
  private final Runnable onExpiry;
  private int state = RUNNING;
  /** Whether the expiry action has run (only after an expiry). */
  private boolean delivered;

  Deadline(Deadlines owner, long timeoutMs, long due, Thread runner, Runnable onExpiry) {
    this.owner = owner;
    this.timeoutMs = timeoutMs;
    this.due = due;
    this.runner = runner;
    this.onExpiry = onExpiry;
  }

  /** When it is due, in {@link System#nanoTime} terms. */
  long due() {
    return due;
  }

  /** Runs on the timer thread. */
  void expire() {
    synchronized (this) {
      if (state != RUNNING) {
        return;
      }
      state = EXPIRED;
      runner.interrupt();
    }
    try {
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
    synchronized (this) {
      if (state != EXPIRED) {
        state = DONE;
        owner.disarm(this);
        return true;
      }
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
  public synchronized boolean expired() {
    return state == EXPIRED;
  }

  /** The deadline in milliseconds from the start of the call. */
  public long timeoutMs() {
    return timeoutMs;
  }
}
