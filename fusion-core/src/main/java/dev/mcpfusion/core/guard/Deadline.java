package dev.mcpfusion.core.guard;

import java.util.concurrent.ScheduledFuture;

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

  private final long timeoutMs;
  private final Thread runner;
  private final Runnable onExpiry;
  private int state = RUNNING;
  private ScheduledFuture<?> task;

  Deadline(long timeoutMs, Thread runner, Runnable onExpiry) {
    this.timeoutMs = timeoutMs;
    this.runner = runner;
    this.onExpiry = onExpiry;
  }

  synchronized void armed(ScheduledFuture<?> task) {
    this.task = task;
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
    if (onExpiry != null) {
      onExpiry.run();
    }
  }

  /**
   * Called by the call's thread when the call is done (whatever its outcome).
   *
   * @return {@code true} when the call finished in time; {@code false} when the deadline expired
   *     first (the result must be discarded; the thread's interrupt has been cleared)
   */
  public boolean finish() {
    boolean expired;
    synchronized (this) {
      expired = state == EXPIRED;
      if (!expired) {
        state = DONE;
        if (task != null) {
          task.cancel(false);
        }
      }
    }
    if (expired) {
      Thread.interrupted();
    }
    return !expired;
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
