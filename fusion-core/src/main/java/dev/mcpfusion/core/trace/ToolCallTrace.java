package dev.mcpfusion.core.trace;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.json.Json;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.wire.Meta;
import dev.mcpfusion.core.wire.Reply;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The span of one {@code tools/call} as the server records it: started before the
 * pipeline resolves the tool, told what happened on the way, ended with the reply. Used by the
 * server's pipeline and edge; not meant for handler code.
 *
 * <p>Status: {@link SpanStatus#OK} for a successful reply; {@link SpanStatus#UNSET} with
 * {@code error.type} and {@link SpanAttributes#MCPFUSION_ERROR_MESSAGE} for a failure the agent
 * can recover from; {@link SpanStatus#ERROR} with {@code error.type = INTERNAL_ERROR}, the incident
 * id and an exception event (type and stack; message only on opt-in) for an unexpected exception.
 * No argument value is ever recorded; result data only on opt-in, and only the stripped tree.
 *
 * <p>A tracer that fails never changes the reply: its failures are logged and the call goes on.
 */
public final class ToolCallTrace {
  private static final Logger LOG = LoggerFactory.getLogger(ToolCallTrace.class);
  /** The start of the problem message of an unaccepted key (spi {@code Args.rejectUnknown}). */
  private static final String UNACCEPTED = "is not an accepted field";

  private final FusionSpan span;
  private final TraceOptions options;
  private final long startNanos;
  private String message;
  private Throwable unexpected;
  private String incident;

  private ToolCallTrace(FusionSpan span, TraceOptions options, long startNanos) {
    this.span = span;
    this.options = options;
    this.startNanos = startNanos;
  }

  /**
   * Starts the span {@code tools/call {toolName}} under the W3C parent of {@code request}
   * ({@link TraceContext#from}).
   *
   * @param router the router behind the tool, or {@code null} for an unknown tool
   * @param action the action when the tool has only one (FLAT), else {@code null}
   */
  public static ToolCallTrace start(FusionTracer tracer, String toolName, Exposition exposition,
      String router, String action, RequestContext request) {
    long start = System.nanoTime();
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, SpanAttributes.TOOLS_CALL);
    attributes.put(SpanAttributes.GEN_AI_OPERATION_NAME, SpanAttributes.GEN_AI_OPERATION_EXECUTE_TOOL);
    attributes.put(SpanAttributes.GEN_AI_TOOL_NAME, toolName);
    attributes.put(SpanAttributes.OPENINFERENCE_SPAN_KIND, SpanAttributes.OPENINFERENCE_KIND_TOOL);
    attributes.put(SpanAttributes.TOOL_NAME, toolName);
    if (router != null) {
      attributes.put(SpanAttributes.MCPFUSION_ROUTER, router);
    }
    if (action != null) {
      attributes.put(SpanAttributes.MCPFUSION_ACTION, action);
    }
    if (exposition != null) {
      attributes.put(SpanAttributes.MCPFUSION_EXPOSITION, exposition.name().toLowerCase(Locale.ROOT));
    }
    TraceContext parent = TraceContext.EMPTY;
    if (request != null) {
      request.sessionId().ifPresent(id -> attributes.put(SpanAttributes.MCP_SESSION_ID, id));
      request.protocolVersion().ifPresent(v -> attributes.put(SpanAttributes.MCP_PROTOCOL_VERSION, v));
      parent = TraceContext.from(request);
    }
    FusionSpan span;
    TraceOptions options;
    try {
      span = tracer.startSpan(SpanAttributes.spanName(toolName), parent,
          Collections.unmodifiableMap(attributes));
      options = tracer.options();
    } catch (RuntimeException e) {
      LOG.warn("tracer {} failed to start a span for tool {}; the call goes on untraced", tracer,
          toolName, e);
      span = NoopSpan.INSTANCE;
      options = TraceOptions.DEFAULT;
    }
    return new ToolCallTrace(span == null ? NoopSpan.INSTANCE : span,
        options == null ? TraceOptions.DEFAULT : options, start);
  }

  /** The action, once the discriminator resolved it. */
  public void action(String action) {
    guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_ACTION, action));
  }

  /**
   * How many values and pieces of text redaction masked in this call's reply ({@code 0} is recorded
   * too: it tells that redaction ran and found nothing).
   */
  public void redactions(int count) {
    guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_REDACTIONS, (long) count));
  }

  /** A failure the agent can recover from, with the message it was told. */
  public void agentError(String message) {
    this.message = message;
  }

  /**
   * A validation failure: the message lists each declared field path and its problem (from the
   * framework's catalogue), never the value that was sent. A key the tool does not accept is
   * agent text, not a declared path, so it is not named.
   */
  public void validation(List<Problem> problems) {
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
    this.unexpected = exception;
    this.incident = incident;
  }

  /** Runs the middleware chain and handler with the tool span current. */
  public <T> T withCurrent(Callable<T> body) throws Exception {
    return span.withCurrent(body);
  }

  /** Records the reply's outcome and size and ends the span. Never throws. */
  public void finish(Reply reply) {
    try {
      if (reply == null) {
        span.setStatus(SpanStatus.ERROR);
        return;
      }
      guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_RESPONSE_SIZE, size(reply)));
      if (!reply.isError()) {
        if (options.recordResultData() && reply.structuredContent() != null) {
          guard(() -> span.setAttribute(SpanAttributes.MCPFUSION_RESULT,
              Json.write(reply.structuredContent())));
        }
        span.setStatus(SpanStatus.OK);
        return;
      }
      String code = errorCode(reply);
      if (code != null) {
        span.setAttribute(SpanAttributes.ERROR_TYPE, code);
      }
      if (unexpected != null) {
        span.setAttribute(SpanAttributes.MCPFUSION_INCIDENT, incident);
        span.recordException(unexpected, options.recordExceptionMessages());
        span.setStatus(SpanStatus.ERROR);
      } else {
        span.setAttribute(SpanAttributes.MCPFUSION_ERROR_MESSAGE, message);
        span.setStatus(SpanStatus.UNSET);
      }
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a tool span; the reply is unaffected", e);
    } finally {
      end();
    }
  }

  /**
   * Records a failure the framework answered as a JSON-RPC error (an unknown tool) and ends the
   * span. Never throws.
   *
   * @param responseBytes UTF-8 bytes of the error sent
   */
  public void finishError(String code, String message, long responseBytes) {
    try {
      span.setAttribute(SpanAttributes.MCPFUSION_RESPONSE_SIZE, responseBytes);
      span.setAttribute(SpanAttributes.ERROR_TYPE, code);
      span.setAttribute(SpanAttributes.MCPFUSION_ERROR_MESSAGE, message);
      span.setStatus(SpanStatus.UNSET);
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a tool span; the reply is unaffected", e);
    } finally {
      end();
    }
  }

  private void end() {
    try {
      span.setAttribute(SpanAttributes.MCPFUSION_DURATION_MS,
          (System.nanoTime() - startNanos) / 1_000_000.0);
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a tool span's duration", e);
    }
    try {
      span.end();
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to end a tool span", e);
    }
  }

  private void guard(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.warn("tracer failed to record a tool span attribute", e);
    }
  }

  private static String errorCode(Reply reply) {
    Object error = reply.meta().get(Meta.ERROR);
    if (error instanceof Map<?, ?> map && map.get("code") instanceof String code) {
      return code;
    }
    return null;
  }

  /** UTF-8 bytes of the text blocks plus the compact JSON of structuredContent and _meta. */
  static long size(Reply reply) {
    long bytes = 0;
    for (String block : reply.blocks()) {
      bytes += utf8Length(block);
    }
    if (reply.structuredContent() != null) {
      bytes += utf8Length(Json.write(reply.structuredContent()));
    }
    if (!reply.meta().isEmpty()) {
      bytes += utf8Length(Json.write(reply.meta()));
    }
    return bytes;
  }

  /** UTF-8 length of {@code s} without encoding it. */
  public static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
