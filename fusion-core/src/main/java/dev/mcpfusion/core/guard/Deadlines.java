package dev.mcpfusion.core.guard;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The timer behind every call deadline of one server: the deadlines in force sit in a concurrent
 * set that one daemon thread checks every {@value #TICK_MILLIS} ms, so starting and disarming a
 * deadline is a set insertion and removal — no timer task, no wake-up of another thread per call.
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

  private final Set<Deadline> active = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean ticking = new AtomicBoolean();
  private final String name = "fusion-deadlines-" + TIMERS.incrementAndGet();

  /** Starts the deadline of a call running on the current thread; {@code onExpiry} may be {@code null}. */
  public Deadline start(long timeoutMs, Runnable onExpiry) {
    Deadline deadline = new Deadline(this, timeoutMs,
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs), Thread.currentThread(), onExpiry);
    active.add(deadline);
    if (!ticking.get() && ticking.compareAndSet(false, true)) {
      Thread ticker = new Thread(this::tick, name);
      ticker.setDaemon(true);
      ticker.start();
    }
    return deadline;
  }

  void disarm(Deadline deadline) {
    active.remove(deadline);
  }

  /** Deadlines in force now. */
  public int active() {
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
      for (Deadline deadline : active) {
        if (now - deadline.due() >= 0 && active.remove(deadline)) {
          deadline.expire();
        }
      }
    }
  }
}
