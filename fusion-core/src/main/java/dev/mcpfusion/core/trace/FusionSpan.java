package dev.mcpfusion.core.trace;

import java.util.concurrent.Callable;

/**
 * One span started by a {@link FusionTracer}. The server calls it from the thread serving the
 * call, ends it exactly once, and never uses it afterwards.
 */
public interface FusionSpan {
  /** Sets a string attribute; a {@code null} value is ignored. */
  FusionSpan setAttribute(String key, String value);

  /** Sets an integer attribute. */
  FusionSpan setAttribute(String key, long value);

  /** Sets a floating-point attribute. */
  FusionSpan setAttribute(String key, double value);

  /** Sets a boolean attribute. */
  FusionSpan setAttribute(String key, boolean value);

  /** Sets the status. No description is ever passed: it would carry the failure's text. */
  FusionSpan setStatus(SpanStatus status);

  /**
   * Records an exception event with the exception's type and stack ({@link StackTraces#of}).
   * Its message, and the messages of its causes, only when {@code withMessage} is true: exception
   * messages carry data.
   */
  FusionSpan recordException(Throwable exception, boolean withMessage);

  /**
   * Runs {@code body} with this span as the current span of the tracing library, so code inside
   * it (middleware, the handler) can start child spans; the previous current context is restored
   * before this method returns, on every path.
   */
  <T> T withCurrent(Callable<T> body) throws Exception;

  /**
   * This span as a W3C {@code traceparent}, for a request the server sends on (it goes in the
   * request's {@code params._meta}, so the client's span joins the trace), or {@code null} when
   * the span has no valid context. By default {@code null}.
   */
  default String traceparent() {
    return null;
  }

  /** Ends the span. */
  void end();
}
