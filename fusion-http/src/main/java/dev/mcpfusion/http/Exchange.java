package dev.mcpfusion.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.CompletableFuture;

/**
 * Who writes one call's reply, decided once between the request's thread and the thread that
 * completes the reply. Three ways, cheapest first:
 *
 * <ul>
 *   <li>The reply is there when the dispatch returns (a handler that answers on the request's
 *       thread: nearly every call): the request's thread writes it, with no async context.
 *   <li>The reply must leave while the handler still holds the request's thread (a deadline's
 *       {@code TIMEOUT}, a drain's cut): the completing thread writes it at once, and the
 *       request's thread, once the handler returns, waits for that write to end before it gives
 *       the exchange back to the container (which would otherwise complete it under the write).
 *   <li>The reply comes after the dispatch returned (an async action): the request's thread
 *       starts an async context and returns; the completing thread writes the reply through it.
 * </ul>
 */
final class Exchange {
  /** What the completing thread does with the reply. */
  enum Writer {
    /** Nothing: the request's thread writes it once the dispatch returns. */
    REQUEST_THREAD,
    /** Writes it now, while the handler may still hold the request's thread, then {@link #heldWritten()}. */
    HELD,
    /** Writes it through {@link #async()}, then completes that. */
    ASYNC
  }

  private enum State { DISPATCHING, HELD_WRITE, ASYNC, DONE }

  private State state = State.DISPATCHING;
  private AsyncContext async;

  /**
   * On the thread that completed the reply: who writes it.
   *
   * @param early whether it must leave now even if the handler still runs (a timeout or a cut)
   */
  synchronized Writer completed(boolean early) {
    switch (state) {
      case DISPATCHING -> {
        if (!early) {
          return Writer.REQUEST_THREAD;
        }
        state = State.HELD_WRITE;
        return Writer.HELD;
      }
      case ASYNC -> {
        state = State.DONE;
        return Writer.ASYNC;
      }
      default -> {
        return Writer.REQUEST_THREAD;
      }
    }
  }

  /**
   * On the request's thread once the dispatch returned: whether it writes the reply itself now.
   * When another thread is writing it (held), waits for that write to end; when the reply has
   * not come yet, starts the async context the completing thread will write it through.
   */
  synchronized boolean dispatched(HttpServletRequest req, CompletableFuture<?> answer) {
    // The answer is read under the monitor: a completion seen here has either taken the held
    // path already or left the write to this thread; one not seen yet finds the async context.
    boolean interrupted = false;
    while (state == State.HELD_WRITE) {
      try {
        wait();
      } catch (InterruptedException e) {
        // Returning now would let the container complete the exchange under the write.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (state == State.DONE) {
      return false;
    }
    if (answer.isDone()) {
      state = State.DONE;
      return true;
    }
    async = req.startAsync();
    async.setTimeout(0);
    state = State.ASYNC;
    return false;
  }

  /** The held write ended: the request's thread may give the exchange back. */
  synchronized void heldWritten() {
    state = State.DONE;
    notifyAll();
  }

  /** The async context of a reply that came after the dispatch returned. */
  synchronized AsyncContext async() {
    return async;
  }
}
