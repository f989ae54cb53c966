package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.ClientLink;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.input.InputRound;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call's way back to its client, for {@code RequestContext}: notifications go out on the
 * call's own {@link Sink} (so HTTP frames them on the call's response stream, before its
 * result), requests to the client are correlated with the client's responses by id on the
 * {@link EdgeSession}, and a cancelled call sends nothing more.
 */
final class CallLink implements ClientLink {
  private static final Logger LOG = LoggerFactory.getLogger(CallLink.class);

  private final EdgeSession session;
  private final Sink out;
  private final EdgeSession.Call call;
  private final boolean modernEra;
  private final Map<String, Object> meta;
  private final Egress egress;
  /** The redaction of the call's answers, which decides that of what the handler says. */
  private final Redactor answers;
  /** The redactor of what the handler says, found on first use: most calls say nothing. */
  private volatile Redactor content;
  private volatile boolean contentKnown;
  private final int cap;
  private final String target;
  /** The server's observer: each request to the client gets a CLIENT span. */
  private final FusionTracer tracer;
  /** The call's context, for the egress filters: set once it is made (it holds this link). */
  private volatile RequestContext request;
  /** A capability the call needed and a 2026-07-28 client did not declare (answered -32021). */
  private volatile String missingCapability;
  /** The answers and questions of a 2026-07-28 request that may ask the client; {@code null}: it cannot. */
  private volatile InputRound round;
  /** How this call becomes a task ({@code @TaskSupport(inputFirst = true)}); {@code null}: it cannot. */
  private volatile Escalation escalation;
  /** The task this call became, or {@code null}. */
  private volatile String taskId;

  /** Turns a running call into a task: {@link TaskCalls#escalate} and its cancellation. */
  interface Escalation {
    /** Stores the task, answers the request with its handle, and returns its id. */
    String start();

    /** Whether the client cancelled the task {@code taskId}. */
    boolean cancelled(String taskId);
  }

  /**
   * @param session the client's session; {@code null} for a stateless 2026-07-28 call over HTTP
   * @param call the tracked call (its cancellation), or {@code null} when untracked
   * @param meta the request's {@code params._meta} ({@code null} for none)
   * @param egress the chain every message the handler sends passes
   * @param answers the redaction of the call's answers ({@code null}: none); what the handler says
   *     is redacted with the egress chain's content redactor for it ({@link Egress#content})
   * @param cap the byte cap of one message, or -1
   * @param target the tool, prompt, resource or completion the call serves
   * @param tracer the server's observer ({@link FusionTracer#NOOP}: no span)
   */
  CallLink(EdgeSession session, Sink out, EdgeSession.Call call, boolean modernEra,
      Map<String, Object> meta, Egress egress, Redactor answers, int cap, String target,
      FusionTracer tracer) {
    this.session = session;
    this.out = out;
    this.call = call;
    this.modernEra = modernEra;
    this.meta = meta == null ? Map.of() : meta;
    this.egress = egress;
    this.answers = answers;
    this.cap = cap;
    this.target = target;
    this.tracer = tracer == null ? FusionTracer.NOOP : tracer;
  }

  /** The context of the call this link serves, made after the link (it holds it). */
  void request(RequestContext request) {
    this.request = request;
  }

  /**
   * The capability the handler needed that a 2026-07-28 client did not declare in
   * {@code io.modelcontextprotocol/clientCapabilities}, or {@code null}: that era answers such a
   * call with MissingRequiredClientCapabilityError (-32021) instead of a result.
   */
  String missingCapability() {
    return missingCapability;
  }

  /**
   * Lets this 2026-07-28 call ask the client through input-required results: its questions and
   * answers go to {@code round}.
   */
  void input(InputRound round) {
    this.round = round;
  }

  /** Lets this call become a task when its handler calls {@code RequestContext.startTask()}. */
  void escalation(Escalation escalation) {
    this.escalation = escalation;
  }

  /** The task this call became, or {@code null} while it is a direct call. */
  String taskId() {
    return taskId;
  }

  @Override
  public synchronized boolean startTask() {
    if (taskId == null && escalation != null) {
      taskId = escalation.start();
    }
    return taskId != null;
  }

  /** The call's input round, or {@code null} when it cannot ask. */
  InputRound input() {
    return round;
  }

  @Override
  public boolean notify(String method, Map<String, Object> params) {
    Map<String, Object> sent = egress.notification(channel(method), method, target, params, content(),
        cap, context());
    if (sent == null) {
      return false;
    }
    out.push(Bodies.notification(method, sent));
    return true;
  }

  private Redactor content() {
    if (!contentKnown) {
      content = egress.content(answers);
      contentKnown = true;
    }
    return content;
  }

  private RequestContext context() {
    RequestContext r = request;
    return r == null ? RequestContext.empty() : r;
  }

  private static Outbound.Channel channel(String method) {
    return switch (method) {
      case JsonRpc.PROGRESS -> Outbound.Channel.PROGRESS;
      case JsonRpc.MESSAGE -> Outbound.Channel.LOG;
      case JsonRpc.SAMPLING_CREATE_MESSAGE -> Outbound.Channel.SAMPLING;
      case JsonRpc.ELICITATION_CREATE -> Outbound.Channel.ELICITATION;
      case JsonRpc.ROOTS_LIST -> Outbound.Channel.ROOTS;
      default -> throw new IllegalArgumentException("no egress channel for " + method);
    };
  }

  @Override
  public LogLevel logLevel() {
    if (modernEra || session == null) {
      // A 2026-07-28 request names its level in _meta; without one the client wants no logs.
      return LogLevel.fromWire(meta.get(Meta.LOG_LEVEL));
    }
    return session.logLevel();
  }

  @Override
  public boolean cancelled() {
    String task = taskId;
    return call != null && call.cancelled() || task != null && escalation.cancelled(task);
  }

  @Override
  public String cannotAsk(String capability) {
    if (modernEra || session == null) {
      if (!(meta.get(Meta.CLIENT_CAPABILITIES) instanceof Map<?, ?> declared)
          || declared.get(capability) == null) {
        missingCapability = capability;
        return "the client did not declare the '" + capability + "' capability";
      }
      if (round != null) {
        return null;
      }
      return "a 2026-07-28 " + target + " request of this kind cannot ask the client (input-required"
          + " results answer tools/call, prompts/get and resources/read only)";
    }
    if (!session.clientDeclared(capability)) {
      return "the client did not declare the '" + capability + "' capability when it initialized";
    }
    return null;
  }

  @Override
  public boolean declared(String capability) {
    if (modernEra || session == null) {
      return meta.get(Meta.CLIENT_CAPABILITIES) instanceof Map<?, ?> declared
          && declared.get(capability) != null;
    }
    return session.clientDeclared(capability);
  }

  @Override
  public List<Map<String, Object>> askAll(List<Ask> asks, Duration timeout) {
    if (taskId != null) {
      // The request was answered with the task's handle: no answer can come with it any more.
      throw FusionError.of("ASKED_AFTER_START", "The handler asked the client after it started its"
          + " task; a task of an inputFirst action gathers every answer before startTask().");
    }
    InputRound input = round;
    if (!(modernEra || session == null) || input == null) {
      return ClientLink.super.askAll(asks, timeout);
    }
    // 2026-07-28: the answers come with the client's retry; what has none is asked all at once.
    List<Map<String, Object>> results = new ArrayList<>(asks.size());
    boolean waiting = false;
    for (Ask a : asks) {
      String key = a.key() != null ? a.key() : input.nextKey(a.method());
      Map<String, Object> answer = input.answer(key, a.method(), a.params());
      if (answer == null) {
        waiting = true;
        // The question leaves like a 2025 request would: redacted, filtered, capped.
        input.sent(key, egress.request(channel(a.method()), a.method(), target, a.params(),
            content(), cap, context()));
      }
      results.add(answer);
    }
    if (waiting) {
      // Unwinds the handler; the edge answers the request with the questions instead of its result.
      throw FusionError.of(INPUT_REQUIRED, "The call waits for the client's answers (it was answered"
          + " with an input-required result).");
    }
    return results;
  }

  @Override
  public void carry(String key, String value) {
    InputRound input = round;
    if (input != null) {
      input.carry(key, value);
    }
  }

  @Override
  public String carried(String key) {
    InputRound input = round;
    return input == null ? null : input.carried(key);
  }

  /** The code of the error that unwinds a 2026-07-28 handler waiting for the client's answers. */
  static final String INPUT_REQUIRED = "INPUT_REQUIRED";

  @Override
  public Map<String, Object> ask(String method, Map<String, Object> params, Duration timeout) {
    if ((modernEra || session == null) && (round != null || taskId != null)) {
      return askAll(List.of(new Ask(null, method, params)), timeout).get(0);
    }
    // Checked before the request gets an id: a refused request is never announced to the client.
    Map<String, Object> sent = egress.request(channel(method), method, target, params, content(),
        cap, context());
    CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
    Object id = session.ask(answer);
    // Every request the server sends its client passes here: one CLIENT span each, whatever it asks.
    RequestTrace trace = SpanStart.clientRequest(tracer, method, id, target);
    try {
      out.push(Bodies.request(id, method, withTraceparent(sent, trace.traceparent())));
      Map<String, Object> response = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (response.get("error") instanceof Map<?, ?> error) {
        trace.rpcError(error.get("code") instanceof Number n ? n.intValue() : JsonRpc.INTERNAL_ERROR,
            null, null);
        Object message = error.get("message");
        throw FusionError.of("CLIENT_ERROR", "The client refused " + method + ": "
                + (message instanceof String m && !m.isBlank() ? m : "(no message)")
                + (error.get("code") instanceof Number code ? " (code " + code + ")" : "") + ".")
            .recovery("Continue without it, or ask the user in the conversation.");
      }
      if (!(response.get("result") instanceof Map<?, ?> result)) {
        trace.failed("CLIENT_ERROR");
        throw FusionError.of("CLIENT_ERROR", "The client answered " + method + " without a result object.");
      }
      trace.succeeded();
      Map<String, Object> tree = new LinkedHashMap<>();
      result.forEach((k, v) -> tree.put(String.valueOf(k), v));
      return tree;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      trace.failed("CANCELLED");
      tellClientToStop(id, "the call was cancelled");
      throw FusionError.of("CANCELLED", "The call was cancelled while waiting for the client's answer to "
          + method + ".");
    } catch (TimeoutException e) {
      trace.failed("CLIENT_TIMEOUT");
      tellClientToStop(id, "no answer in time");
      throw FusionError.of("CLIENT_TIMEOUT", "The client did not answer " + method + " within "
          + timeout.toMinutes() + " minutes.").recovery("Try again when the user is available.");
    } catch (ExecutionException e) {
      trace.failed("CLIENT_UNAVAILABLE");
      throw FusionError.of("CLIENT_UNAVAILABLE", "The client's session ended before it answered "
          + method + ".");
    } finally {
      session.forgetAsk(id);
      trace.end();
    }
  }

  /**
   * {@code params} with the CLIENT span's {@code traceparent} in its {@code _meta} (unprefixed, as
   * the conventions propagate it), so the client's own span joins the trace; as it is without one.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> withTraceparent(Map<String, Object> params, String traceparent) {
    if (traceparent == null) {
      return params;
    }
    Map<String, Object> copy = params == null ? new LinkedHashMap<>() : new LinkedHashMap<>(params);
    Map<String, Object> meta = copy.get("_meta") instanceof Map<?, ?> m
        ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
    meta.put(dev.mcpfusion.core.trace.TraceContext.TRACEPARENT, traceparent);
    copy.put("_meta", meta);
    return copy;
  }

  /** Withdraws a request the server no longer waits for, so the client can stop working on it. */
  private void tellClientToStop(Object id, String reason) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("requestId", id);
    params.put("reason", reason);
    try {
      // The call's own stream discards everything once the call is cancelled: use the session's.
      session.out().push(Bodies.notification("notifications/cancelled", params));
    } catch (RuntimeException e) {
      LOG.debug("Could not withdraw request {} from session {}", id, session.id(), e);
    }
  }
}
