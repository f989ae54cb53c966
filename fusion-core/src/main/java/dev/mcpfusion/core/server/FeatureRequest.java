package dev.mcpfusion.core.server;

import dev.mcpfusion.core.trace.internal.RequestTrace;
import java.util.function.Function;

/**
 * One {@code prompts/get}, {@code resources/read} or {@code completion/complete} the edge is
 * answering, as {@link FeatureCalls} sees it: its JSON-RPC id, where the {@code TIMEOUT} error goes
 * when its deadline passes while the handler still runs, and its span once
 * {@link FeatureCalls} started it (when the server traces). Used by the request's thread, and by
 * the deadline's thread for the {@code TIMEOUT} it writes (the span is set before the handler
 * runs, hence before any deadline can pass).
 */
public final class FeatureRequest {
  private final Object id;
  private final Function<FeatureError, byte[]> atDeadline;
  private RequestTrace trace = RequestTrace.OFF;
  private volatile boolean answeredAtDeadline;

  /**
   * @param id the JSON-RPC id, or {@code null} for none
   * @param atDeadline writes the {@code TIMEOUT} error at the deadline, on the deadline's thread,
   *     and returns the bytes it wrote; {@code null}: the error is thrown once the handler comes
   *     back instead
   */
  public FeatureRequest(Object id, Function<FeatureError, byte[]> atDeadline) {
    this.id = id;
    this.atDeadline = atDeadline;
  }

  /** The JSON-RPC id, or {@code null}. */
  public Object id() {
    return id;
  }

  /** The request's span; {@link RequestTrace#OFF} when it has none (no tracer, or malformed params). */
  public RequestTrace trace() {
    return trace;
  }

  void trace(RequestTrace trace) {
    this.trace = trace;
  }

  /** Whether a {@code TIMEOUT} can be written at the deadline. */
  boolean answersAtDeadline() {
    return atDeadline != null;
  }

  /** Writes {@code timeout} at the deadline (on its thread); the span learns the bytes written. */
  void answerAtDeadline(FeatureError timeout) {
    byte[] written = atDeadline.apply(timeout);
    if (written != null) {
      trace.written(written, timeout.code());
    }
  }

  /**
   * Whether the {@code TIMEOUT} error already went out at the deadline: the error thrown to the
   * caller afterwards must then not be written again.
   */
  public boolean answeredAtDeadline() {
    return answeredAtDeadline;
  }

  void answeredAtDeadline(boolean answered) {
    this.answeredAtDeadline = answered;
  }
}
