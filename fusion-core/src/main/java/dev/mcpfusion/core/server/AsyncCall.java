package dev.mcpfusion.core.server;

import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One call of an action whose handler answers with a {@code CompletionStage}, answered without a
 * thread waiting for the stage. The dispatching thread runs the call up to the handler's return
 * (the gate, decoding, the {@code @SerializeOn} key, middleware, the handler); the rest — the
 * presenter and the egress chain — runs when the stage completes, on the thread that completes it.
 *
 * <p>Exactly one of three things answers the call, whichever comes first: the stage completing
 * (its value presented as a blocking return would be, its failure mapped as a thrown exception
 * would be), the deadline (a {@code TIMEOUT} reply; the stage is cancelled), or the client's
 * cancellation (no reply; the stage is cancelled). What the gate and the key hold is given back
 * when the stage completes — a cancelled {@code CompletableFuture} completes at once — so a call
 * counts against {@code @Limits(maxConcurrent)} and holds its key until then.
 */
public final class AsyncCall {
  /** Where the call's answer goes, exactly once. */
  @FunctionalInterface
  public interface Outcome {
    /**
     * The call is answered.
     *
     * @param reply the reply, or {@code null} when the client cancelled the call (nothing is sent)
     * @param held whether the dispatching thread is still held by the handler, which had not
     *     returned its stage when the deadline passed (the transport must not wait for that thread)
     */
    void answered(Reply reply, boolean held);
  }

  private final Outcome outcome;
  private final AtomicBoolean settled = new AtomicBoolean();
  /** What to give back when the call is over: its gate slot, its key. Guarded by {@code this}. */
  private final List<Runnable> releases = new ArrayList<>(2);
  /** The thread running the synchronous part, or {@code null} once it is done. Guarded by {@code this}. */
  private Thread dispatching;
  private volatile CompletionStage<?> stage;
  private volatile ScheduledFuture<?> timer;
  /** Whether the stage was attached: it, not the dispatching thread, gives back what is held. */
  private volatile boolean pending;

  /** A call whose answer goes to {@code outcome}. */
  public AsyncCall(Outcome outcome) {
    this.outcome = outcome;
  }

  /**
   * Cancels the call (the client sent {@code notifications/cancelled}): nothing is sent, the stage
   * is cancelled, and a handler that has not returned it yet is interrupted.
   */
  public void cancel() {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    stopTimer();
    interruptDispatching();
    cancelStage();
    outcome.answered(null, false);
  }

  /** Whether the call has been answered (or cancelled). */
  public boolean settled() {
    return settled.get();
  }

  /** The synchronous part of the call: everything up to the handler's return. */
  @FunctionalInterface
  interface Body {
    /** The reply to send now, or {@code null} when the body attached a stage ({@link #attach}). */
    Reply run() throws Throwable;
  }

  /**
   * Runs the synchronous part on this thread: the concurrency gate, then {@code body}, under a
   * deadline of {@code timeoutMs} (none when 0 or less) that starts now and ends with the answer.
   *
   * @param busy the answer when the gate has no room
   * @param timedOut the answer at the deadline (called once, on the timer's thread)
   * @return the reply to send now (the caller hands it to {@link #answer}), or {@code null} when the
   *     call is answered later, or was answered already
   */
  Reply start(ConcurrencyGate gate, long timeoutMs, Timer timers, Supplier<Reply> busy,
      Supplier<Reply> timedOut, Body body) throws Throwable {
    synchronized (this) {
      dispatching = Thread.currentThread();
    }
    if (timeoutMs > 0) {
      timer = timers.schedule(() -> expire(timedOut), timeoutMs);
    }
    try {
      if (gate != null) {
        if (!gate.enter()) {
          return busy.get();
        }
        hold(gate::leave);
      }
      return body.run();
    } catch (InterruptedException e) {
      if (settled.get()) {
        return null; // the deadline or a cancellation answered while the call waited for its slot
      }
      throw e;
    } finally {
      synchronized (this) {
        dispatching = null;
      }
      if (settled.get()) {
        // Answered meanwhile: the interrupt that told this thread must not outlive the call.
        Thread.interrupted();
      }
      if (!pending) {
        releaseAll();
      }
    }
  }

  /** Gives {@code release} back when the call is over (its stage completed, or it never had one). */
  void hold(Runnable release) {
    synchronized (this) {
      releases.add(release);
    }
  }

  /**
   * Answers the call with {@code stage}'s outcome once it completes: {@code onValue} presents its
   * value, {@code onFailure} maps its failure; both give the reply. An outcome after the deadline
   * or a cancellation is discarded.
   */
  void attach(CompletionStage<?> stage, Function<Object, Reply> onValue,
      Function<Throwable, Reply> onFailure) {
    this.stage = stage;
    pending = true;
    stage.whenComplete((value, failure) -> {
      releaseAll();
      if (!settled.compareAndSet(false, true)) {
        return;
      }
      stopTimer();
      outcome.answered(failure == null ? onValue.apply(value) : onFailure.apply(failure), false);
    });
    if (settled.get()) {
      cancel(stage); // the deadline or a cancellation came before the handler returned its stage
    }
  }

  /** Sends {@code reply} as the call's answer, unless the call was answered already. */
  public void answer(Reply reply) {
    if (reply != null && settled.compareAndSet(false, true)) {
      stopTimer();
      outcome.answered(reply, false);
    }
  }

  private void expire(Supplier<Reply> timedOut) {
    if (!settled.compareAndSet(false, true)) {
      return;
    }
    boolean held = interruptDispatching();
    cancelStage();
    outcome.answered(timedOut.get(), held);
  }

  /** Interrupts the dispatching thread if it is still in the synchronous part; whether it was. */
  private boolean interruptDispatching() {
    synchronized (this) {
      if (dispatching != null) {
        dispatching.interrupt();
        return true;
      }
      return false;
    }
  }

  private void cancelStage() {
    CompletionStage<?> s = stage;
    if (s != null) {
      cancel(s);
    }
  }

  private void stopTimer() {
    ScheduledFuture<?> t = timer;
    if (t != null) {
      t.cancel(false);
    }
  }

  private void releaseAll() {
    List<Runnable> held;
    synchronized (this) {
      held = new ArrayList<>(releases);
      releases.clear();
    }
    for (Runnable release : held) {
      release.run();
    }
  }

  /** Cancels {@code stage} when it can be cancelled (a {@code CompletableFuture} view of it). */
  static void cancel(CompletionStage<?> stage) {
    try {
      stage.toCompletableFuture().cancel(true);
    } catch (UnsupportedOperationException notCancellable) {
      // A stage without a future view: its work runs on; its outcome is discarded.
    }
  }

  /**
   * Waits for {@code stage} on this thread: the path of a caller that answers synchronously (a task,
   * an in-memory call). An interrupt (a deadline, a cancellation) cancels the stage.
   */
  static Object await(CompletionStage<?> stage) throws Throwable {
    CompletableFuture<?> future;
    try {
      future = stage.toCompletableFuture();
    } catch (UnsupportedOperationException noView) {
      CompletableFuture<Object> copy = new CompletableFuture<>();
      stage.whenComplete((v, e) -> {
        if (e == null) {
          copy.complete(v);
        } else {
          copy.completeExceptionally(e);
        }
      });
      future = copy;
    }
    try {
      return future.get();
    } catch (InterruptedException e) {
      cancel(stage);
      throw e;
    } catch (ExecutionException e) {
      throw e.getCause() == null ? e : e.getCause();
    }
  }

  /**
   * The timer behind the deadlines of one server's async calls: one daemon thread, started with
   * the first deadline and ended after a second without any; a deadline disarmed early is removed
   * at once, so finished calls leave nothing behind.
   */
  static final class Timer {
    private volatile ScheduledThreadPoolExecutor executor;

    ScheduledFuture<?> schedule(Runnable task, long delayMs) {
      ScheduledThreadPoolExecutor e = executor;
      if (e == null) {
        synchronized (this) {
          e = executor;
          if (e == null) {
            e = new ScheduledThreadPoolExecutor(1, r -> {
              Thread t = new Thread(r, "fusion-async-deadlines");
              t.setDaemon(true);
              return t;
            });
            e.setRemoveOnCancelPolicy(true);
            e.setKeepAliveTime(1, TimeUnit.SECONDS);
            e.allowCoreThreadTimeOut(true);
            executor = e;
          }
        }
      }
      return e.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    }
  }
}
