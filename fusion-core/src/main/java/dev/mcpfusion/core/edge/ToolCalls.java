package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.KeyedGate;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.core.server.AsyncCall;
import dev.mcpfusion.core.server.BoundAction;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.Exposer;
import dev.mcpfusion.core.server.Pipeline;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Reply;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one {@code tools/call} handler of both eras: checks the params, looks the tool up once, runs
 * the pipeline once. An unknown tool is a JSON-RPC error (-32602 with the {@code UNKNOWN_TOOL} text
 * and data) whose trace span is recorded here, since it never reaches the pipeline. The span of a
 * call the edge serves is started here and ended by the edge once the reply is written.
 */
final class ToolCalls {
  private static final Logger LOG = LoggerFactory.getLogger(ToolCalls.class);

  private final ToolRegistry registry;
  private final Pipeline pipeline;
  private final FusionTracer tracer;
  private final Egress egress;

  ToolCalls(ToolRegistry registry, Pipeline pipeline, FusionTracer tracer) {
    this.registry = registry;
    this.pipeline = pipeline;
    this.tracer = tracer;
    this.egress = pipeline.egress();
  }

  /**
   * The action a call of {@code tool} with {@code arguments} runs: the tool's only one (FLAT), or
   * the one its {@code action} argument names (GROUPED); {@code null} when that names none (the
   * pipeline answers the call with an error before any handler runs).
   */
  static BoundAction action(ExposedTool tool, Map<String, ?> arguments) {
    if (!tool.grouped()) {
      return tool.single();
    }
    return arguments != null && arguments.get(Exposer.DISCRIMINATOR) instanceof String name
        ? tool.actions().get(name) : null;
  }

  /**
   * The way back to the client for one call of {@code tool}: what its handler sends passes the
   * egress chain with the action's content redactor and byte cap.
   */
  CallLink link(ExposedTool tool, Map<String, ?> arguments, EdgeSession session, Sink out,
      EdgeSession.Call call, boolean modernEra, Map<String, Object> meta) {
    BoundAction action = action(tool, arguments);
    Redactor answers = action == null ? registry.defaultRedactor() : action.redactor();
    int cap = action == null ? -1 : action.limits().maxEgressBytes();
    return new CallLink(session, out, call, modernEra, meta, egress, answers, cap, tool.name(),
        tracer);
  }

  ToolRegistry registry() {
    return registry;
  }

  /** The egress chain every message of a call passes. */
  Egress egress() {
    return egress;
  }

  /** The server's tracer ({@link FusionTracer#NOOP} when it does not trace). */
  FusionTracer tracer() {
    return tracer;
  }

  /** Why {@code params} cannot be a {@code tools/call}, or {@code null} when its shape is right. */
  static String invalidParams(Object params) {
    if (!(params instanceof Map<?, ?> map)) {
      return "Invalid params: tools/call needs an object with the tool \"name\".";
    }
    Object name = map.get("name");
    if (!(name instanceof String)) {
      return name == null
          ? "Invalid params: the field \"name\" is missing; tools/call needs the tool name."
          : "Invalid params: the field \"name\" must be a string.";
    }
    Object arguments = map.get("arguments");
    if (arguments != null && !(arguments instanceof Map<?, ?>)) {
      return "Invalid params: the field \"arguments\" must be an object.";
    }
    Object meta = map.get("_meta");
    if (meta != null && !(meta instanceof Map<?, ?>)) {
      return "Invalid params: the field \"_meta\" must be an object.";
    }
    return null;
  }

  /** The tool called {@code name}, or {@code null}. */
  ExposedTool find(String name) {
    return registry.tool(name);
  }

  /** Runs the pipeline once. Never throws: a failure around the pipeline is an internal error. */
  Reply call(ExposedTool tool, Map<String, ?> arguments, RequestContext request) {
    return call(tool, arguments, request, null);
  }

  /**
   * Runs the pipeline once, in a span of the pipeline's own; a reply sent at a deadline goes to
   * {@code early} and {@code null} is returned (see
   * {@link Pipeline#call(ExposedTool, Map, RequestContext, Consumer)}).
   */
  Reply call(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      Consumer<Reply> early) {
    try {
      return filtered(tool, arguments, request, pipeline.call(tool, arguments, request, early));
    } catch (Throwable failure) {
      return outside(tool, failure);
    }
  }

  /**
   * Runs the pipeline once in {@code trace}, the span the edge started for the request and ends
   * once the reply is written ({@link RequestTrace#OFF}: not traced); the span is told the outcome the client
   * gets, after the egress filters.
   */
  Reply call(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      Consumer<Reply> early, RequestTrace trace) {
    Reply reply;
    try {
      reply = filtered(tool, arguments, request,
          pipeline.call(tool, arguments, request, early, trace));
    } catch (Throwable failure) {
      reply = outside(tool, failure);
    }
    trace.replied(reply);
    return reply;
  }

  /**
   * A reply the edge gives a call without running the pipeline (a workflow state that does not
   * allow the action, an action its tags hide), after the egress filters as every reply; the span
   * is told the outcome.
   */
  Reply refused(ExposedTool tool, Map<String, ?> arguments, RequestContext request, Reply refusal,
      RequestTrace trace) {
    Reply reply = filtered(tool, arguments, request, refusal);
    trace.replied(reply);
    return reply;
  }

  /** Whether {@code message} is a {@code tools/call} of an async action (answered after dispatch). */
  boolean repliesLater(Message message) {
    // Without an async action (hasDeadlines covers them) no call is answered later: no look-up.
    if (!registry.hasDeadlines()) {
      return false;
    }
    BoundAction action = called(message);
    return action != null && action.mode().async();
  }

  /**
   * The action a {@code tools/call} runs, or {@code null}: another method, invalid params, no such
   * tool, or a grouped tool's call naming no action of it.
   */
  @SuppressWarnings("unchecked")
  private BoundAction called(Message message) {
    if (!JsonRpc.TOOLS_CALL.equals(message.method()) || invalidParams(message.rawParams()) != null) {
      return null;
    }
    Map<?, ?> params = message.params();
    ExposedTool tool = find((String) params.get("name"));
    return tool == null ? null : action(tool, (Map<String, ?>) params.get("arguments"));
  }

  /**
   * Whether {@code message} is a {@code tools/call} that runs to its handler's return without
   * waiting: its action answers with a stage or is declared {@code @NonBlocking}, no gate of its may
   * queue the call, and a plain handler has no deadline (whose interrupt would land on the caller).
   */
  boolean neverWaits(Message message) {
    BoundAction action = called(message);
    if (action == null || !action.mode().returnsWithoutBlocking()) {
      return false;
    }
    ConcurrencyGate gate = action.gate();
    KeyedGate keys = action.mode().keys();
    return (gate == null || gate.queue() == 0) && (keys == null || keys.queue() == 0)
        && (action.mode().async() || action.limits().timeoutMs() <= 0);
  }

  /** Whether a call of {@code tool} with {@code arguments} runs an action that answers with a stage. */
  static boolean async(ExposedTool tool, Map<String, ?> arguments) {
    BoundAction action = action(tool, arguments);
    return action != null && action.mode().async();
  }

  /**
   * A call of an async action, not started yet ({@link #start}): its reply, after the egress
   * filters, goes to {@code outcome} exactly once (see {@link AsyncCall}), the span {@code trace}
   * told of it. Cancelling it cancels the handler's stage.
   */
  AsyncCall callLater(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      RequestTrace trace, AsyncCall.Outcome outcome) {
    return new AsyncCall((reply, held) -> {
      Reply sent = reply;
      if (reply != null) {
        try {
          sent = filtered(tool, arguments, request, reply);
        } catch (Throwable failure) {
          sent = outside(tool, failure);
        }
        trace.replied(sent);
      }
      outcome.answered(sent, held);
    });
  }

  /** Starts {@code call}, made by {@link #callLater}; never throws. */
  void start(AsyncCall call, ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      RequestTrace trace) {
    try {
      pipeline.call(tool, arguments, request, trace, call);
    } catch (Throwable failure) {
      call.answer(outside(tool, failure));
    }
  }

  /** {@code reply} after the egress filters ({@code null} stays {@code null}: it went out at a deadline). */
  private Reply filtered(ExposedTool tool, Map<String, ?> arguments, RequestContext request,
      Reply reply) {
    if (reply == null || !egress.filtering()) {
      return reply;
    }
    // The filters see the reply as it is about to be written: redacted, capped, marked.
    BoundAction action = action(tool, arguments);
    return egress.toolResult(reply, tool.name(), tool.router().name(),
        action == null ? tool.name() : action.name(),
        action == null ? -1 : action.limits().maxEgressBytes(), request);
  }

  /** The pipeline answers every failure itself; this only guards the code around it. */
  private static Reply outside(ExposedTool tool, Throwable failure) {
    String incident = ErrorReplies.newIncidentId();
    LOG.error("tool {} failed outside the pipeline (incident {})", tool.name(), incident, failure);
    return ErrorReplies.internal(tool.router().name(),
        tool.grouped() ? tool.name() : tool.single().name(), incident);
  }

  /**
   * Starts the span of a {@code tools/call} of {@code tool} with JSON-RPC id {@code id}
   * ({@link RequestTrace#OFF} when the server does not trace: no span work at all).
   */
  RequestTrace trace(ExposedTool tool, RequestContext request, Object id, Map<String, ?> arguments) {
    return SpanStart.tool(tracer, tool.name(), registry.exposition(), tool.router().name(),
        tool.grouped() ? null : tool.single().name(), request, id, arguments);
  }

  /** The -32602 error body for an unknown tool; records its span, sized as written. */
  byte[] unknownTool(Object id, String name, RequestContext request, Map<String, ?> arguments) {
    return unknownTool(id, name, request, arguments, registry.toolNames());
  }

  /** The -32602 error body for an unknown tool, offering {@code available}; records its span. */
  byte[] unknownTool(Object id, String name, RequestContext request, Map<String, ?> arguments,
      java.util.List<String> available) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", Codes.UNKNOWN_TOOL);
    data.put("available", available);
    String text = ErrorReplies.unknownToolMessage(name, available);
    byte[] body = Bodies.error(id, JsonRpc.INVALID_PARAMS, text, data);
    RequestTrace trace = unknownTrace(name, request, id, arguments);
    trace.written(body, JsonRpc.INVALID_PARAMS);
    trace.end();
    return body;
  }

  /** Records the span of a call of an unknown tool answered without a JSON-RPC message. */
  void traceUnknown(String name, RequestContext request, Map<String, ?> arguments) {
    unknownTrace(name, request, null, arguments).end();
  }

  private RequestTrace unknownTrace(String name, RequestContext request, Object id,
      Map<String, ?> arguments) {
    // The span is named after the tool: a name no tool could have is cut there too.
    RequestTrace trace = SpanStart.tool(tracer, Echo.cut(name), registry.exposition(), null, null,
        request, id, arguments);
    trace.unknownTool(name);
    return trace;
  }
}
