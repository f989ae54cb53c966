package dev.mcpfusion.http;

import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deadlines of the calls awaiting their reply, kept by one timer task scheduled for the
 * earliest of them. A call schedules a task only when its deadline comes before every check
 * already scheduled — with one request timeout for every call, only when none is — and no task is
 * ever cancelled, so a call that ends in time costs the timer a read of an {@link AtomicLong} (a
 * task per call would wake the timer's thread on every call). When the task runs it times out
 * every call past its deadline and schedules itself for the next one still open.
 */
final class ReplyDeadlines {
  private static final long NONE = Long.MAX_VALUE;
  private final Set<PostCall> open;
  private final ScheduledThreadPoolExecutor timer;
  /** When the earliest scheduled check runs ({@link System#nanoTime()}), or {@link #NONE}. */
  private final AtomicLong nextCheck = new AtomicLong(NONE);

  /** @param open the calls awaiting their reply; a call is in it before it is {@linkplain #watch watched} */
  ReplyDeadlines(Set<PostCall> open) {
    this.open = open;
    // Its thread starts with the first scheduled check, not here.
    this.timer = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "fusion-http-deadlines");
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Makes sure a check runs by {@code deadline} ({@link System#nanoTime()}): the open call with that
   * deadline is timed out then, unless it is answered first.
   */
  void watch(long deadline) {
    long next;
    do {
      next = nextCheck.get();
      if (next <= deadline) {
        // A check runs no later than this deadline, and schedules the next from what is open then.
        return;
      }
    } while (!nextCheck.compareAndSet(next, deadline));
    schedule(deadline);
  }

  private void schedule(long at) {
    try {
      timer.schedule(this::check, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // Stopped: the drain answers what is still open.
    }
  }

  private void check() {
    nextCheck.set(NONE);
    long now = System.nanoTime();
    long earliest = NONE;
    for (PostCall call : open) {
      long deadline = call.deadline;
      if (deadline == PostCall.NO_DEADLINE || call.answer.isDone()) {
        continue;
      }
      if (deadline - now <= 0) {
        call.answer.completeExceptionally(new TimeoutException());
      } else if (deadline < earliest) {
        earliest = deadline;
      }
    }
    if (earliest != NONE) {
      watch(earliest);
    }
  }

  /** Checks scheduled and not yet run. */
  int scheduled() {
    return timer.getQueue().size();
  }

  /** Stops the timer; calls still open are the drain's to answer. */
  void stop() {
    timer.shutdownNow();
  }
}
