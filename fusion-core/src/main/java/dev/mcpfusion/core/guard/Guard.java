package dev.mcpfusion.core.guard;

/**
 * Pipeline steps 2 and 5 around one request a handler serves — a tool call, a prompt, a resource
 * read or a completion alike: the concurrency gate, then the deadline from the gate to the end of
 * {@code body}. The callers only say what a refused request answers; which of the outcomes happens
 * is decided here, once for every kind of request.
 *
 * <ul>
 *   <li>Over capacity (no slot and no waiting place): {@link Refusal#busy} at once, {@code body}
 *       never runs.
 *   <li>Past the deadline: the thread is interrupted and {@code atDeadline} runs on the timer's
 *       thread at once (it sends the {@code TIMEOUT} reply while the handler may still run); once
 *       {@code body} comes back, its outcome — result or failure — is discarded and
 *       {@link Refusal#timedOut} answers on the calling thread.
 *   <li>Otherwise {@code body}'s result, or its failure rethrown.
 * </ul>
 *
 * <p>A gate slot is held until {@code body} returns, also after the deadline answered: a handler
 * that ignores its interrupt still counts against the limit.
 */
public final class Guard {
  private Guard() {}

  /** The work the guard admits: the rest of the pipeline, up to the finished answer. */
  @FunctionalInterface
  public interface Body<R> {
    /** Runs it; may throw anything (the caller answers a failure). */
    R run() throws Throwable;
  }

  /** What a request answers when the guard refuses it; called on the request's own thread. */
  public interface Refusal<R> {
    /** The answer to a request turned away by a full {@code gate}; may throw instead. */
    R busy(ConcurrencyGate gate);

    /**
     * The answer to a request whose deadline passed first (the answer {@code atDeadline} already
     * sent, when there was one); may throw instead.
     *
     * @param discarded what {@code body} threw after the deadline, or {@code null}
     */
    R timedOut(Throwable discarded);
  }

  /**
   * Runs {@code body} under {@code limits}.
   *
   * @param gate the gate the request shares with the others of its {@code maxConcurrent}
   *     declaration, or {@code null} when its calls are not counted
   * @param deadlines the server's timer
   * @param atDeadline runs on the timer's thread when the deadline passes first (sends the
   *     {@code TIMEOUT} reply), or {@code null}: {@link Refusal#timedOut} alone answers then
   */
  public static <R> R run(ActionLimits limits, ConcurrencyGate gate, Deadlines deadlines,
      Runnable atDeadline, Refusal<R> refusal, Body<R> body) throws Throwable {
    Deadline deadline = limits.timeoutMs() > 0
        ? deadlines.start(limits.timeoutMs(), atDeadline) : null;
    R result = null;
    Throwable failure = null;
    boolean busy = false;
    try {
      if (gate == null) {
        result = body.run();
      } else if (!gate.enter()) {
        busy = true;
      } else {
        try {
          result = body.run();
        } finally {
          gate.leave();
        }
      }
    } catch (Throwable t) {
      // Waiting in the queue ends with an InterruptedException when the deadline passes there.
      failure = t;
    }
    if (deadline != null && !deadline.finish()) {
      return refusal.timedOut(failure);
    }
    if (failure != null) {
      throw failure;
    }
    return busy ? refusal.busy(gate) : result;
  }
}
