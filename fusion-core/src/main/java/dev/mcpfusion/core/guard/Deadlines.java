package dev.mcpfusion.core.guard;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The timer behind every call deadline of one server: one daemon thread, started with the first
 * deadline. A disarmed deadline is removed from the timer at once, so finished calls leave nothing
 * behind. An expiry action should be quick (it writes one reply).
 */
public final class Deadlines implements AutoCloseable {
  private static final AtomicInteger TIMERS = new AtomicInteger();

  private volatile ScheduledThreadPoolExecutor timer;

  /** Starts the deadline of a call running on the current thread; {@code onExpiry} may be {@code null}. */
  public Deadline start(long timeoutMs, Runnable onExpiry) {
    Deadline deadline = new Deadline(timeoutMs, Thread.currentThread(), onExpiry);
    deadline.armed(timer().schedule(deadline::expire, timeoutMs, TimeUnit.MILLISECONDS));
    return deadline;
  }

  private ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t = timer;
    if (t == null || t.isShutdown()) {
      synchronized (this) {
        t = timer;
        if (t == null || t.isShutdown()) {
          String name = "fusion-deadlines-" + TIMERS.incrementAndGet();
          t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
          });
          t.setRemoveOnCancelPolicy(true);
          timer = t;
        }
      }
    }
    return t;
  }

  /** Stops the timer thread; deadlines not yet expired never will. A later deadline starts a new one. */
  @Override
  public void close() {
    ScheduledThreadPoolExecutor t = timer;
    if (t != null) {
      t.shutdownNow();
    }
  }
}
