package dev.mcpfusion.core.trace;

/**
 * Opt-ins beyond the default span. By default a span carries no argument value, no
 * result data, no output and no exception message: those carry the user's data.
 *
 * @param recordResultData record the presenter-stripped {@code structuredContent} of a successful
 *     tool call as {@link SpanAttributes#MCPFUSION_RESULT} (compact JSON); never the handler's raw
 *     object, so {@code @Hidden} fields cannot reach a span
 * @param recordExceptionMessages record the message of an unexpected exception (and of its causes)
 *     in its exception event
 * @param recordInput record what the client sent (the arguments of a tool call or prompt, the URI
 *     read, the argument completed) as OpenInference {@link SpanAttributes#INPUT_VALUE}, as it
 *     arrived: the client's own input, not redacted
 * @param recordOutput record the JSON-RPC result of every request as OpenInference
 *     {@link SpanAttributes#OUTPUT_VALUE}, taken from the response the edge wrote: after the
 *     presenter and redaction, exactly what the client read
 * @param recordCaller record the subject of a caller an authenticator vouched for (an OAuth
 *     token's {@code sub}, an API key's subject) as {@link SpanAttributes#USER_ID}: the subject
 *     only, never the token, its claims or its scopes; the local caller (stdio, HTTP without
 *     authentication) records nothing
 */
public record TraceOptions(boolean recordResultData, boolean recordExceptionMessages,
    boolean recordInput, boolean recordOutput, boolean recordCaller) {
  /** Records nothing beyond the default attributes. */
  public static final TraceOptions DEFAULT = new TraceOptions(false, false, false, false, false);

  /** The first four opt-ins; no caller. */
  public TraceOptions(boolean recordResultData, boolean recordExceptionMessages,
      boolean recordInput, boolean recordOutput) {
    this(recordResultData, recordExceptionMessages, recordInput, recordOutput, false);
  }

  /** The first two opt-ins; no input or output. */
  public TraceOptions(boolean recordResultData, boolean recordExceptionMessages) {
    this(recordResultData, recordExceptionMessages, false, false, false);
  }

  /** These options, recording the input ({@code input.value}) and output ({@code output.value}) too. */
  public TraceOptions withInputAndOutput() {
    return new TraceOptions(recordResultData, recordExceptionMessages, true, true, recordCaller);
  }

  /** These options, recording the caller's subject ({@link SpanAttributes#USER_ID}) too. */
  public TraceOptions withCaller() {
    return new TraceOptions(recordResultData, recordExceptionMessages, recordInput, recordOutput,
        true);
  }
}
