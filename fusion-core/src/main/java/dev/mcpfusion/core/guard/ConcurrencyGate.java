package dev.mcpfusion.core.guard;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pipeline step 2: at most {@code maxConcurrent} calls run at once and at most {@code queue} wait
 * for a slot; any call beyond that is turned away at once ({@code SERVER_BUSY}). There is no other
 * waiting room, so the calls held by a gate are bounded by {@code maxConcurrent + queue}.
 *
 * <p>A slot is held until the handler's thread leaves the pipeline, also after a deadline has
 * answered the call: a handler that ignores its interrupt still counts against the limit.
 * Thread-safe; shared by every action that resolves its limit to the same declaration.
 */
public final class ConcurrencyGate {
  private final int maxConcurrent;
  private final int queue;
  private final Semaphore slots;
  private final AtomicInteger waiting = new AtomicInteger();

  /** A gate of {@code maxConcurrent} slots (at least 1) and {@code queue} waiting places (0 or more). */
  public ConcurrencyGate(int maxConcurrent, int queue) {
    if (maxConcurrent < 1 || queue < 0) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1 and queue at least 0");
    }
    this.maxConcurrent = maxConcurrent;
    this.queue = queue;
    this.slots = new Semaphore(maxConcurrent);
  }

  /**
   * Takes a slot: at once if one is free, else after waiting in the queue if a waiting place is
   * free. Every {@code true} must be paired with one {@link #leave()}.
   *
   * @return {@code false} when neither a slot nor a waiting place is free (the call is turned away)
   * @throws InterruptedException when interrupted while waiting (a deadline passed or the call was
   *     cancelled); no slot is held then
   */
  public boolean enter() throws InterruptedException {
    if (slots.tryAcquire()) {
      return true;
    }
    if (waiting.incrementAndGet() > queue) {
      waiting.decrementAndGet();
      return false;
    }
    try {
      slots.acquire();
      return true;
    } finally {
      waiting.decrementAndGet();
    }
  }

  /** Gives the slot back. */
  public void leave() {
    slots.release();
  }

  /** The calls that may run at once. */
  public int maxConcurrent() {
    return maxConcurrent;
  }

  /** The calls that may wait. */
  public int queue() {
    return queue;
  }

  /** Calls waiting for a slot now. */
  public int waiting() {
    return waiting.get();
  }

  /** Calls holding a slot now. */
  public int running() {
    return maxConcurrent - slots.availablePermits();
  }
}
