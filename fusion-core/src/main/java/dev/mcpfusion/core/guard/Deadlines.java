package dev.mcpfusion.core.guard;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The timer behind every call deadline of one server: deadlines sit in a lock-free queue that one
 * daemon thread sweeps every {@value #TICK_MILLIS} ms — expiring those due, dropping those whose
 * call finished — so starting a deadline is one enqueue and disarming it one compare-and-set: no
 * timer task, no wake-up of another thread per call.
 * A deadline therefore expires within one tick after it is due. The thread starts with the first
 * deadline and ends after a second without any; an expiry action should be quick (it writes one
 * reply).
 */
public final class Deadlines {
  /** How often the deadlines in force are checked. */
  public static final long TICK_MILLIS = 5;

  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
  private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final AtomicInteger TIMERS = new AtomicInteger();

  private final ConcurrentLinkedQueue<Deadline> active = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean ticking = new AtomicBoolean();
  private final String name = "fusion-deadlines-" + TIMERS.incrementAndGet();

  /** Starts the deadline of a call running on the current thread; {@code onExpiry} may be {@code null}. */
  public Deadline start(long timeoutMs, Runnable onExpiry) {
    Deadline deadline = new Deadline(timeoutMs,
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs), Thread.currentThread(), onExpiry);
    active.add(deadline);
    if (!ticking.get() && ticking.compareAndSet(false, true)) {
      Thread ticker = new Thread(this::tick, name);
      ticker.setDaemon(true);
      ticker.start();
    }
    return deadline;
  }

  /** Deadlines not swept yet (those in force, and finished ones until the next sweep). */
  public int pending() {
    return active.size();
  }

  private void tick() {
    long idleSince = System.nanoTime();
    while (true) {
      LockSupport.parkNanos(TICK_NANOS);
      long now = System.nanoTime();
      if (active.isEmpty()) {
        if (now - idleSince < IDLE_NANOS) {
          continue;
        }
        ticking.set(false);
        // A deadline started meanwhile saw this thread ticking: keep ticking for it, unless a new
        // thread already does.
        if (active.isEmpty() || !ticking.compareAndSet(false, true)) {
          return;
        }
      }
      idleSince = now;
      for (Iterator<Deadline> it = active.iterator(); it.hasNext(); ) {
        Deadline deadline = it.next();
        if (deadline.settled()) {
          it.remove();
        } else if (now - deadline.due() >= 0) {
          it.remove();
          deadline.expire();
        }
      }
    }
  }
}
