package dev.mcpfusion.http;

import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The deadlines of the calls awaiting their reply, kept by one timer task scheduled for the
 * earliest of them. A call that ends in time — nearly every one — costs the timer nothing: no
 * task is scheduled or cancelled for it (a task per call would wake the timer's thread on every
 * call). When the task runs it times out every call past its deadline and schedules itself for
 * the next one still open.
 */
final class ReplyDeadlines {
  private static final long NONE = Long.MAX_VALUE;
  private final Set<PostCall> open;
  private final ScheduledExecutorService timer;
  /** When the earliest scheduled check runs ({@link System#nanoTime()}), or {@link #NONE}. */
  private final AtomicLong nextCheck = new AtomicLong(NONE);

  /** @param open the calls awaiting their reply; a call is in it before it is {@linkplain #watch watched} */
  ReplyDeadlines(Set<PostCall> open) {
    this.open = open;
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "fusion-http-deadlines");
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
    this.timer = executor;
  }

  /** Times {@code call} out at {@code deadline} ({@link System#nanoTime()}) unless it is answered first. */
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
    return ((ScheduledThreadPoolExecutor) timer).getQueue().size();
  }

  /** Stops the timer; calls still open are the drain's to answer. */
  void stop() {
    timer.shutdownNow();
  }
}
