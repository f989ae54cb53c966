package dev.mcpfusion.core.trace;

/**
 * Opt-ins beyond the default span. By default a span carries no argument value, no
 * result data and no exception message: those carry the user's data.
 *
 * @param recordResultData record the presenter-stripped {@code structuredContent} of a successful
 *     call as {@link SpanAttributes#MCPFUSION_RESULT} (compact JSON); never the handler's raw
 *     object, so {@code @Hidden} fields cannot reach a span
 * @param recordExceptionMessages record the message of an unexpected exception (and of its causes)
 *     in its exception event
 */
public record TraceOptions(boolean recordResultData, boolean recordExceptionMessages) {
  /** Records nothing beyond the default attributes. */
  public static final TraceOptions DEFAULT = new TraceOptions(false, false);
}
