package dev.mcpfusion.core.guard;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The timer behind every call deadline of one server. Each thread that runs calls owns one
 * reusable {@link Deadline}, armed when a call starts and disarmed when it ends; one daemon thread
 * sweeps the threads' deadlines every {@value #TICK_MILLIS} ms and expires those due. Starting a
 * deadline is therefore a few writes to memory the calling thread owns, and disarming it one
 * compare-and-set: no allocation, no shared queue, no timer task and no wake-up of another thread
 * per call. The sweeper also reads the clock for them: a deadline counts from the first sweep that
 * sees it (within one tick of the call's start, never before it) and expires at the first sweep
 * after it is due, so a call gets its timeout plus at most two ticks, never less.
 *
 * <p>The sweeping thread starts with the first deadline and ends after a second without any in
 * force; an expiry action should be quick (it writes one reply). A thread's deadline is forgotten
 * once the thread has ended. A call started while the same thread's deadline is in force (a handler
 * that calls the server again on its own thread) gets a deadline of its own, forgotten once settled.
 */
public final class Deadlines {
  /** How often the deadlines in force are checked. */
  public static final long TICK_MILLIS = 5;

  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
  private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final AtomicInteger TIMERS = new AtomicInteger();
  /** Slots of the table by thread id; a power of two. */
  private static final int SLOTS = 256;

  /**
   * The deadline each thread reuses, one per thread and server, found by the thread's id: a thread
   * looks in its slot first, and the slot's deadline is its own only if it names the thread as its
   * runner. The table is written when a thread runs its first call (or takes a slot over from
   * another), then only read, so threads on other slots never contend for it. A thread whose slot
   * holds another thread's deadline finds its own in {@link #own}.
   */
  private final Deadline[] slots = new Deadline[SLOTS];
  /** Each thread's deadline, for the threads whose slot another thread holds. */
  private final ThreadLocal<Deadline> own = new ThreadLocal<>();
  /** Every deadline the sweeper checks: the threads' own, and nested calls' until settled. */
  private final ConcurrentLinkedQueue<Deadline> all = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean ticking = new AtomicBoolean();
  private final String name = "fusion-deadlines-" + TIMERS.incrementAndGet();

  /** Starts the deadline of a call running on the current thread; {@code onExpiry} may be {@code null}. */
  public Deadline start(long timeoutMs, Runnable onExpiry) {
    Thread thread = Thread.currentThread();
    int slot = (int) thread.getId() & (SLOTS - 1);
    Deadline deadline = slots[slot];
    if (deadline == null || !deadline.runsOn(thread)) {
      deadline = own.get();
    }
    if (deadline != null && !deadline.inForce()) {
      deadline.arm(timeoutMs, onExpiry);
    } else {
      // Armed before the sweeper can see it: a one-off found settled is forgotten.
      boolean nested = deadline != null;
      deadline = new Deadline(thread, nested);
      deadline.arm(timeoutMs, onExpiry);
      if (!nested) {
        own.set(deadline);
        Deadline held = slots[slot];
        if (held == null || !held.runnerAlive()) {
          slots[slot] = deadline;
        }
      }
      all.add(deadline);
    }
    if (!ticking.get() && ticking.compareAndSet(false, true)) {
      Thread ticker = new Thread(this::tick, name);
      ticker.setDaemon(true);
      ticker.start();
    }
    return deadline;
  }

  /** Deadlines the sweeper checks: one per thread that has run a call, plus nested calls in force. */
  public int tracked() {
    return all.size();
  }

  private void tick() {
    long idleSince = System.nanoTime();
    while (true) {
      LockSupport.parkNanos(TICK_NANOS);
      long now = System.nanoTime();
      boolean inForce = false;
      for (Iterator<Deadline> it = all.iterator(); it.hasNext(); ) {
        Deadline deadline = it.next();
        int outcome = deadline.check(now);
        if (outcome == Deadline.IN_FORCE) {
          inForce = true;
        } else if (outcome == Deadline.FORGET) {
          it.remove();
          release(deadline);
        }
      }
      if (inForce) {
        idleSince = now;
        continue;
      }
      if (now - idleSince < IDLE_NANOS) {
        continue;
      }
      ticking.set(false);
      // A deadline armed meanwhile saw this thread ticking: keep ticking for it, unless a new
      // thread already does.
      if (!anyInForce() || !ticking.compareAndSet(false, true)) {
        return;
      }
      idleSince = now;
    }
  }

  /**
   * Empties the slot of a forgotten deadline, so an ended thread is not kept reachable. A slot a new
   * thread took meanwhile may be emptied too: that thread then finds its deadline in {@link #own}.
   */
  private void release(Deadline deadline) {
    int slot = (int) deadline.runnerId() & (SLOTS - 1);
    if (slots[slot] == deadline) {
      slots[slot] = null;
    }
  }

  private boolean anyInForce() {
    for (Deadline deadline : all) {
      if (deadline.inForce()) {
        return true;
      }
    }
    return false;
  }
}
