package dev.mcpfusion.core.trace.internal;

import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.core.trace.SpanAttributes;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Reply;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The span of one request a handler serves — {@code tools/call}, {@code prompts/get},
 * {@code resources/read}, {@code completion/complete} — as the server records it: started once the
 * request names its target (an unknown target included), told what happened on the way, told the
 * outcome by the answer's code (never by reading its text), told the size of the response at the
 * point the edge writes it, and ended once. Used by the server's pipeline and edge; not meant for
 * handler code.
 *
 * <p>Status: {@link SpanStatus#OK} for a successful answer; {@link SpanStatus#UNSET} with
 * {@code error.type} and {@link SpanAttributes#MCPFUSION_ERROR_MESSAGE} for a failure the agent
 * can recover from; {@link SpanStatus#ERROR} with {@code error.type = INTERNAL_ERROR}, the incident
 * id and an exception event (type and stack; message only on opt-in) for an unexpected exception.
 * No argument value is recorded unless {@link TraceOptions#recordInput()} opts in, and no output
 * unless {@link TraceOptions#recordOutput()} does — then only the response as written (after
 * redaction), never what the handler returned.
 *
 * <p>{@link #written} may be called from the deadline's thread (a {@code TIMEOUT} sent while the
 * handler still runs); everything else from the request's thread. The span itself is only touched
 * by the request's thread. A tracer that fails never changes the answer: its failures are logged
 * and the request goes on.
 *
 * <p>A request is always in a trace: with {@link FusionTracer#NOOP} {@link SpanStart}'s
 * factories return {@link #OFF}, so the pipeline tells its trace what happens without asking
 * whether it traces, and tracing that is off costs no allocation and no attribute work. The
 * metrics side (guard counts, the operation's duration) is {@link RequestMeter}'s.
 */
public final class RequestTrace {
  private static final Logger LOG = LoggerFactory.getLogger(RequestTrace.class);
  /** The start of the problem message of an unaccepted key (spi {@code Args.rejectUnknown}). */
  private static final String UNACCEPTED = "is not an accepted field";
  private static final String JSON = "application/json";

  /**
   * The trace of a request the server does not trace: every call on it does nothing (no span, no
   * attribute, no message built) and {@link #withCurrent} just runs its body. Shared; holds no state.
   */
  public static final RequestTrace OFF = new RequestTrace(null, TraceOptions.DEFAULT, 0);

  /** {@code null} only for {@link #OFF}. */
  private final FusionSpan span;
  private final TraceOptions options;
  private final long startNanos;
  /** What the metrics are told ({@link RequestMeter#NONE} when the server only traces). */
  private final RequestMeter meter;
  private final AtomicBoolean ended = new AtomicBoolean();
  private String message;
  private Throwable unexpected;
  private String incident;
  /** Whether the outcome was told, and which. */
  private boolean answered;
  private boolean failed;
  private String errorType;
  private int rpcCode;
  private Map<String, Object> resultData;
  // Set where the response is written, possibly on the deadline's thread.
  private volatile long responseBytes = -1;
  private volatile String output;

  RequestTrace(FusionSpan span, TraceOptions options, long startNanos) {
    this(span, options, startNanos, RequestMeter.NONE);
  }

  RequestTrace(FusionSpan span, TraceOptions options, long startNanos, RequestMeter meter) {
    this.span = span;
    this.options = options;
    this.startNanos = startNanos;
    this.meter = meter;
  }

  // ---- on the way ------------------------------------------------------------------------------

  /** The action, once the discriminator resolved it. */
  public void action(String action) {
    if (span == null) {
      return;
    }
    guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_ACTION, action));
  }

  /**
   * How many values and pieces of text redaction masked in this call's reply ({@code 0} is recorded
   * too: it tells that redaction ran and found nothing).
   */
  public void redactions(int count) {
    if (span == null) {
      return;
    }
    guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_REDACTIONS, (long) count));
    if (count > 0) {
      meter.count(FusionMeter.GuardEvent.REDACTED, count);
    }
  }

  /** The byte cap cut the reply, or replaced it with {@code PAYLOAD_TOO_LARGE}. */
  public void capped() {
    if (span == null) {
      return;
    }
    meter.count(FusionMeter.GuardEvent.BYTES_CAPPED, 1);
  }

  /**
   * The request named a prompt (or completed one) the server does not have: its metrics label is
   * {@link McpMetrics#OTHER}, so invented names cannot grow the number of series.
   */
  public void unknownTarget() {
    if (span == null) {
      return;
    }
    meter.unknownTarget();
  }

  /** The protocol version the answer negotiated ({@code initialize}), when none was known before. */
  public void negotiated(String protocolVersion) {
    if (span == null) {
      return;
    }
    meter.negotiated(protocolVersion);
  }

  /** The grouped tool's {@code action} argument is missing. */
  public void missingAction() {
    agentError("The required field \"action\" is missing.");
  }

  /** The grouped tool's {@code action} argument is a JSON {@code type}, not a string. */
  public void actionNotText(String type) {
    if (span == null) {
      return;
    }
    agentError("Field \"action\" must be a string, got " + type + ".");
  }

  /** The grouped tool's {@code action} argument names no action of {@code router}. */
  public void unknownAction(String action, String router) {
    if (span == null) {
      return;
    }
    agentError("The action " + Echo.quoted(action) + " does not exist in " + router + ".");
  }

  /** The call named a tool the server does not have: answered -32602 {@code UNKNOWN_TOOL}. */
  public void unknownTool(String name) {
    if (span == null) {
      return;
    }
    meter.unknownTarget();
    rpcError(JsonRpc.INVALID_PARAMS, Codes.UNKNOWN_TOOL,
        "The tool " + Echo.quoted(name) + " does not exist.");
  }

  /** The concurrency gate turned the call away. */
  public void busy() {
    if (span == null) {
      return;
    }
    meter.count(FusionMeter.GuardEvent.REFUSED, 1);
    agentError("The server is busy.");
  }

  /** The caller lacked the scopes {@code missing}, which the action requires. */
  public void forbidden(List<String> missing) {
    if (span == null) {
      return;
    }
    agentError("The caller lacks the scopes " + String.join(" ", missing) + ".");
  }

  /** The deadline of {@code timeoutMs} passed before the call finished. */
  public void timedOut(long timeoutMs) {
    if (span == null) {
      return;
    }
    meter.count(FusionMeter.GuardEvent.TIMED_OUT, 1);
    agentError("The call did not finish within " + timeoutMs + " ms.");
  }

  /** A failure the agent can recover from, with the message it was told. */
  public void agentError(String message) {
    if (span == null) {
      return;
    }
    this.message = message;
  }

  /**
   * A validation failure: the message lists each declared field path and its problem (from the
   * framework's catalogue), never the value that was sent. A key the tool does not accept is
   * agent text, not a declared path, so it is not named.
   */
  public void validation(List<Problem> problems) {
    if (span == null) {
      return;
    }
    StringBuilder text = new StringBuilder("Invalid arguments: ");
    for (int i = 0; i < problems.size(); i++) {
      Problem p = problems.get(i);
      if (i > 0) {
        text.append("; ");
      }
      String problem = p.message() == null ? "" : p.message();
      String path = problem.startsWith(UNACCEPTED) ? "(a field)" : p.path();
      text.append(path == null || path.isEmpty() ? "(arguments)" : path).append(' ').append(problem);
    }
    this.message = text.toString();
  }

  /** An unexpected exception, answered as {@code INTERNAL_ERROR} with {@code incident}. */
  public void unexpected(Throwable exception, String incident) {
    if (span == null) {
      return;
    }
    this.unexpected = exception;
    this.incident = incident;
  }

  /**
   * Whether this trace records anything ({@code false} for {@link #OFF}): for the one caller whose
   * argument would cost work to build (a message to redact, a body to wrap).
   */
  public boolean recording() {
    return span != null;
  }

  /** Runs the middleware chain and handler with this span current. */
  public <T> T withCurrent(Callable<T> body) throws Exception {
    return span == null ? body.call() : span.withCurrent(body);
  }

  // ---- the outcome -----------------------------------------------------------------------------

  /**
   * The reply of a tool call: its outcome is {@link Reply#isError()} and {@link Reply#errorCode()},
   * whatever its text says. {@code null} when the pipeline produced none (the span then ends with
   * {@link SpanStatus#ERROR}).
   */
  public void replied(Reply reply) {
    if (span == null) {
      return;
    }
    if (reply == null) {
      return;
    }
    answered = true;
    failed = reply.isError();
    errorType = reply.errorCode();
    if (!failed && options.recordResultData()) {
      resultData = reply.structuredContent();
    }
  }

  /**
   * A request that failed with {@code type} (its {@code error.type}) and no JSON-RPC error code of
   * its own: a request to the client that timed out or was withdrawn.
   */
  public void failed(String type) {
    if (span == null) {
      return;
    }
    answered = true;
    failed = true;
    errorType = type;
  }

  /**
   * This trace's span as a W3C {@code traceparent} (to send on in a request's {@code _meta}), or
   * {@code null} when it records no span or the tracer gives none.
   */
  public String traceparent() {
    if (span == null) {
      return null;
    }
    try {
      return span.traceparent();
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to give a span's traceparent", e);
      return null;
    }
  }

  /** A prompt, resource or completion request answered with a result. */
  public void succeeded() {
    if (span == null) {
      return;
    }
    answered = true;
    failed = false;
  }

  /**
   * A request answered with a JSON-RPC error.
   *
   * @param code the JSON-RPC error code
   * @param type our code ({@code UNKNOWN_PROMPT}, {@code SERVER_BUSY}, …), or {@code null}: the
   *     JSON-RPC code is the {@code error.type} then
   * @param message the message the client was told, when nothing said a shorter one before
   */
  public void rpcError(int code, String type, String message) {
    if (span == null) {
      return;
    }
    answered = true;
    failed = true;
    rpcCode = code;
    errorType = type != null ? type : Integer.toString(code);
    if (this.message == null) {
      this.message = message;
    }
  }

  /**
   * The response as the edge wrote it: its size, and on opt-in the result it carries (the output
   * the client reads, after redaction). May be called from the deadline's thread.
   *
   * @param errorCode the JSON-RPC error code of an error response, 0 for a result
   */
  public void written(byte[] json, int errorCode) {
    if (span == null) {
      return;
    }
    responseBytes = json.length;
    if (errorCode == 0 && options.recordOutput()) {
      output = resultMember(json);
    }
  }

  /**
   * The {@code result} member of a JSON-RPC result response as written, or {@code null}. The
   * first {@code "result":} is the member itself: the envelope's members before it ({@code jsonrpc},
   * {@code id}) cannot hold that text, since a quote inside a JSON string is escaped.
   */
  static String resultMember(byte[] json) {
    String text = new String(json, StandardCharsets.UTF_8);
    int at = text.indexOf("\"result\":");
    if (at < 0 || !text.endsWith("}")) {
      return null;
    }
    return text.substring(at + "\"result\":".length(), text.length() - 1);
  }

  /**
   * Records the outcome, the size and the duration, ends the span and records the operation's
   * duration. Never throws; only the first call does anything (a reply may be seen on two paths).
   */
  public void end() {
    if (span == null || !ended.compareAndSet(false, true)) {
      return;
    }
    try {
      String late = meter.lateVersion();
      if (late != null) {
        guard(() -> span.setAttribute(SpanAttributes.MCP_PROTOCOL_VERSION, late));
      }
      long bytes = responseBytes;
      if (bytes >= 0) {
        guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_RESPONSE_SIZE, bytes));
      }
      String out = output;
      if (out != null) {
        guard(() -> span.setAttribute(SpanAttributes.OUTPUT_VALUE, out));
        guard(() -> span.setAttribute(SpanAttributes.OUTPUT_MIME_TYPE, JSON));
      }
      if (!answered) {
        span.setStatus(SpanStatus.ERROR);
        return;
      }
      if (rpcCode != 0) {
        span.setAttribute(SpanAttributes.RPC_RESPONSE_STATUS_CODE, Integer.toString(rpcCode));
      }
      if (!failed) {
        if (resultData != null) {
          guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_RESULT, Json.write(resultData)));
        }
        span.setStatus(SpanStatus.OK);
        return;
      }
      if (errorType != null) {
        span.setAttribute(SpanAttributes.ERROR_TYPE, errorType);
      }
      if (unexpected != null) {
        span.setAttribute(SpanAttributes.MCPFUSION_INCIDENT, incident);
        span.recordException(unexpected, options.recordExceptionMessages());
        span.setStatus(SpanStatus.ERROR);
      } else if (Codes.INTERNAL_ERROR.equals(errorType)) {
        // Something failed where the span could not see the exception (an egress filter that
        // threw, say): still a failure of the server, not of the agent.
        span.setStatus(SpanStatus.ERROR);
      } else {
        span.setAttribute(SpanAttributes.MCPFUSION_ERROR_MESSAGE, message);
        span.setStatus(SpanStatus.UNSET);
      }
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a span; the answer is unaffected", e);
    } finally {
      finish();
    }
  }

  private void finish() {
    long nanos = System.nanoTime() - startNanos;
    try {
      span.setAttribute(SpanAttributes.MCPFUSION_DURATION_MS, nanos / 1_000_000.0);
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a span's duration", e);
    }
    try {
      span.end();
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to end a span", e);
    }
    meter.ended(nanos, answered, failed, errorType, rpcCode);
  }

  private void guard(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a span attribute", e);
    }
  }
}
