package dev.mcpfusion.core.egress;

import dev.mcpfusion.core.Content;
import dev.mcpfusion.core.EgressFilter;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.guard.EgressCap;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.wire.ToolResults;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The egress chain of one server: what every outbound message passes after the step that shaped it
 * and before the edge writes it — redaction of the content no view shaped, the
 * {@link EgressFilter}s in registration order, then the byte cap. Thread-safe; built once with the
 * server.
 *
 * <p>Each channel fails closed in its own way: a tool answers an error envelope, a prompt,
 * resource or completion request a JSON-RPC error ({@link Refused}), a notification is not sent,
 * and a sampling or elicitation request fails in the handler with a {@link FusionError}. Every
 * refusal carries an incident id that the server log repeats; none carries the refused data.
 */
public final class Egress {
  private static final Logger LOG = LoggerFactory.getLogger(Egress.class);

  /** A chain without filters and without server-wide redaction. */
  public static final Egress NONE = new Egress(List.of(), Redaction.none());

  private final List<EgressFilter> filters;
  private final Redaction serverDefault;
  /** The server-wide detectors and patterns, without paths; {@code null} when it has none. */
  private final Redactor serverContent;
  /** The content redactor of each action redactor that is not the server default's. */
  private final Map<Redactor, Optional<Redactor>> content = new ConcurrentHashMap<>();

  /**
   * The chain of a server.
   *
   * @param filters the egress filters, in the order they run
   * @param serverDefault the server-wide redaction
   */
  public Egress(List<EgressFilter> filters, Redaction serverDefault) {
    this.filters = List.copyOf(filters);
    this.serverDefault = serverDefault == null ? Redaction.none() : serverDefault;
    this.serverContent = Redactions.compile(Redactions.contentPolicy(this.serverDefault, null));
  }

  /** Whether any filter is registered (without one, tool results skip building a tree for it). */
  public boolean filtering() {
    return !filters.isEmpty();
  }

  // ---- redaction -------------------------------------------------------------------------------

  /**
   * The redactor of content no view shaped (attachments, talk-back, plain prompt text, completion
   * values) on a call whose answers {@code answers} masks: the server-wide detectors and patterns,
   * joined by those of the call's view when its {@code @Redact} replaced the server default for its
   * data; {@code null} when neither has any. Paths are left out: they are relative to a view.
   */
  public Redactor content(Redactor answers) {
    Redaction policy = answers == null ? null : Redactions.policy(answers);
    if (policy == null || policy == serverDefault || policy.equals(serverDefault)) {
      return serverContent;
    }
    return content.computeIfAbsent(answers, a -> Optional.ofNullable(
        Redactions.compile(Redactions.contentPolicy(serverDefault, Redactions.policy(a))))).orElse(null);
  }

  /** The server-wide content redactor (see {@link #content}); {@code null} when there is none. */
  public Redactor serverContent() {
    return serverContent;
  }

  /**
   * The content a handler attached, as wire trees with what {@code redactor} finds masked in their
   * text: a text block's text, an embedded resource's text and URI, a link's URI, name, title and
   * description. Binary data (base64 {@code data} and {@code blob}) is not text and is sent as is.
   *
   * @throws IllegalStateException when a part cannot be read as plain JSON (the caller fails closed)
   */
  public static List<Map<String, Object>> attachments(List<Content> attached, Redactor redactor,
      Tally tally) {
    List<Map<String, Object>> out = new ArrayList<>(attached.size());
    for (Content c : attached) {
      out.add(redact(redactor, c.toWire(), tally));
    }
    return out;
  }

  /**
   * {@code tree} with what {@code redactor} finds masked in every string, copy on write, except
   * binary data and the client's own progress token. {@code null} {@code redactor}: unchanged.
   *
   * @throws IllegalStateException for a part that is not plain JSON, which it cannot vouch for
   */
  public static Map<String, Object> redact(Redactor redactor, Map<String, Object> tree,
      Tally tally) {
    if (redactor == null) {
      return tree;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> out = (Map<String, Object>) walk(redactor, tree, null, tally, 0);
    return out;
  }

  private static Object walk(Redactor redactor, Object value, Map<?, ?> parent, Tally tally,
      int depth) {
    if (value == null || value instanceof Boolean || value instanceof Number) {
      return value;
    }
    if (value instanceof String s) {
      return redactor.text(s, tally);
    }
    if (depth > 256) {
      throw new IllegalStateException("a message nested deeper than 256 levels cannot be vouched for");
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = null;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalStateException("cannot redact a map whose key is "
              + (e.getKey() == null ? "null" : "a " + e.getKey().getClass().getName()));
        }
        Object before = e.getValue();
        Object after = binary(key, map) ? before : walk(redactor, before, map, tally, depth + 1);
        if (after != before && out == null) {
          out = new LinkedHashMap<>();
          for (Map.Entry<?, ?> earlier : map.entrySet()) {
            if (earlier == e) {
              break;
            }
            out.put((String) earlier.getKey(), earlier.getValue());
          }
        }
        if (out != null) {
          out.put(key, after);
        }
      }
      return out == null ? map : out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = null;
      for (int i = 0; i < list.size(); i++) {
        Object before = list.get(i);
        Object after = walk(redactor, before, null, tally, depth + 1);
        if (after != before && out == null) {
          out = new ArrayList<>(list.subList(0, i));
        }
        if (out != null) {
          out.add(after);
        }
      }
      return out == null ? list : out;
    }
    throw new IllegalStateException("cannot redact a " + value.getClass().getName()
        + "; only plain JSON trees can be vouched for");
  }

  /**
   * Whether the member {@code key} of {@code map} is not text a person wrote: base64 binary
   * ({@code blob}; {@code data} of an image or audio block) or the client's own progress token,
   * which it matches notifications by.
   */
  private static boolean binary(String key, Map<?, ?> map) {
    return switch (key) {
      case "blob", "progressToken" -> true;
      case "data" -> "image".equals(map.get("type")) || "audio".equals(map.get("type"));
      default -> false;
    };
  }

  // ---- tool results ----------------------------------------------------------------------------

  /**
   * A tool's reply after the filters: as it was when they all pass; rewritten, then measured
   * against {@code cap} again (a rewrite over it is {@code PAYLOAD_TOO_LARGE}); withheld when one
   * vetoes; {@code INTERNAL_ERROR} when one throws or rewrites it into something that is not a
   * tool result.
   *
   * @param cap the action's byte cap, or -1
   */
  public Reply toolResult(Reply reply, String tool, String router, String action, int cap,
      RequestContext request) {
    if (filters.isEmpty()) {
      return reply;
    }
    StringBuilder written = new StringBuilder(256);
    ToolResults.appendClassicResult(reply, written);
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = (Map<String, Object>) Json.parse(written.toString());
    Verdict verdict = run(Outbound.of(Outbound.Channel.TOOL_RESULT, JsonRpc.TOOLS_CALL, tool, tree),
        request);
    if (verdict.passed()) {
      return reply;
    }
    if (verdict.failed()) {
      return ErrorReplies.internal(router, action, verdict.incident);
    }
    if (verdict.out.vetoed()) {
      return ErrorReplies.withheld(verdict.out.vetoCode(), verdict.out.vetoMessage(),
          verdict.incident);
    }
    Reply rewritten;
    try {
      rewritten = ToolResults.read(verdict.out.tree());
    } catch (IllegalArgumentException notAResult) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("An egress filter rewrote the result of {} into something that is not a tool result:"
          + " {} (incident {})", tool, notAResult.getMessage(), incident);
      return ErrorReplies.internal(router, action, incident);
    }
    return cap > 0
        ? EgressCap.fit(rewritten, cap, router, action, UnaryOperator.identity())
        : rewritten;
  }

  // ---- prompts, resources, completions ---------------------------------------------------------

  /**
   * A prompt, resource or completion result, already redacted where it was shaped (a view's part
   * by the view's redaction, the rest by {@link #content}), after the filters and the byte cap.
   *
   * @param origin how errors name what was asked for ({@code billing/overdue_invoices})
   * @param cap the byte cap of the result object, or -1
   * @throws Refused when the result must not be sent
   */
  public Map<String, Object> result(Outbound.Channel channel, String method, String target,
      Map<String, Object> result, int cap, RequestContext request, String origin) {
    Map<String, Object> tree = result;
    if (!filters.isEmpty()) {
      Verdict verdict = run(Outbound.of(channel, method, target, tree), request);
      if (verdict.failed()) {
        throw Refused.internal(origin, verdict.incident);
      }
      if (verdict.out.vetoed()) {
        throw Refused.withheld(verdict.out.vetoCode(), verdict.out.vetoMessage(), verdict.incident);
      }
      if (verdict.out.rewritten()) {
        tree = verdict.out.tree();
      }
    }
    if (cap > 0) {
      long bytes = utf8Bytes(tree);
      if (bytes > cap) {
        LOG.warn("[{}] the {} result is {} bytes, over its cap of {} bytes; it was not sent",
            origin, method, bytes, cap);
        throw Refused.tooLarge(origin, channel, cap);
      }
    }
    return tree;
  }

  // ---- talk-back -------------------------------------------------------------------------------

  /**
   * A notification's params after redaction, the filters and the byte cap; {@code null} when it
   * must not be sent (a veto, a failure, over the cap: logged, never raised into the handler, which
   * only learns that nothing was sent).
   */
  public Map<String, Object> notification(Outbound.Channel channel, String method, String target,
      Map<String, Object> params, Redactor redactor, int cap, RequestContext request) {
    Map<String, Object> tree;
    try {
      tree = redact(redactor, params, new Tally());
    } catch (RuntimeException e) {
      LOG.error("{} of {} could not be redacted; it was not sent (incident {})", method, target,
          ErrorReplies.newIncidentId(), e);
      return null;
    }
    if (!filters.isEmpty()) {
      Verdict verdict = run(Outbound.of(channel, method, target, tree), request);
      if (verdict.failed() || verdict.out.vetoed()) {
        return null;
      }
      if (verdict.out.rewritten()) {
        tree = verdict.out.tree();
      }
    }
    if (cap > 0) {
      long bytes = utf8Bytes(tree);
      if (bytes > cap) {
        LOG.warn("{} of {} is {} bytes, over the cap of {} bytes; it was not sent", method, target,
            bytes, cap);
        return null;
      }
    }
    return tree;
  }

  /**
   * A request's params (sampling, elicitation) after redaction, the filters and the byte cap.
   *
   * @throws FusionError when it must not be sent: the filter's code and message with an incident
   *     id for a veto, {@code INTERNAL_ERROR} for a failure, {@code PAYLOAD_TOO_LARGE} over the cap
   */
  public Map<String, Object> request(Outbound.Channel channel, String method, String target,
      Map<String, Object> params, Redactor redactor, int cap, RequestContext request) {
    Map<String, Object> tree;
    try {
      tree = redact(redactor, params, new Tally());
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("{} of {} could not be redacted; it was not sent (incident {})", method, target,
          incident, e);
      throw FusionError.of(Codes.INTERNAL_ERROR, "The request to the client could not be checked"
          + " before sending (incident " + incident + ").");
    }
    if (!filters.isEmpty()) {
      Verdict verdict = run(Outbound.of(channel, method, target, tree), request);
      if (verdict.failed()) {
        throw FusionError.of(Codes.INTERNAL_ERROR, "The request to the client could not be checked"
            + " before sending (incident " + verdict.incident + ").");
      }
      if (verdict.out.vetoed()) {
        throw FusionError.of(verdict.out.vetoCode(), verdict.out.vetoMessage() + " (incident "
            + verdict.incident + ")").recovery("Continue without asking the client.");
      }
      if (verdict.out.rewritten()) {
        tree = verdict.out.tree();
      }
    }
    if (cap > 0) {
      long bytes = utf8Bytes(tree);
      if (bytes > cap) {
        throw FusionError.of(Codes.PAYLOAD_TOO_LARGE, "The " + method + " request is " + bytes
            + " bytes, larger than " + cap + " bytes, the most this call may send.")
            .recovery("Ask the client for less.");
      }
    }
    return tree;
  }

  // ---- filters ---------------------------------------------------------------------------------

  /** The outcome of the filters: the message as the last one left it, or a failure. */
  private record Verdict(Outbound out, boolean changed, String incident) {
    boolean passed() {
      return !changed && incident == null;
    }

    boolean failed() {
      return out == null;
    }
  }

  private Verdict run(Outbound message, RequestContext request) {
    Outbound out = message;
    for (EgressFilter filter : filters) {
      Outbound next;
      try {
        next = filter.filter(out, request);
      } catch (Exception | LinkageError e) {
        String incident = ErrorReplies.newIncidentId();
        LOG.error("Egress filter {} failed on {}; the message was not sent (incident {})", filter,
            out, incident, e);
        return new Verdict(null, true, incident);
      }
      if (next == null) {
        String incident = ErrorReplies.newIncidentId();
        LOG.error("Egress filter {} returned null for {}; the message was not sent (incident {})."
            + " Return the message itself to let it pass.", filter, out, incident);
        return new Verdict(null, true, incident);
      }
      if (next.channel() != message.channel()) {
        String incident = ErrorReplies.newIncidentId();
        LOG.error("Egress filter {} returned a message of another channel for {}; the message was"
            + " not sent (incident {})", filter, out, incident);
        return new Verdict(null, true, incident);
      }
      if (next.vetoed()) {
        String incident = ErrorReplies.newIncidentId();
        LOG.warn("Egress filter {} vetoed {}: {} (incident {})", filter, out, next.vetoCode(),
            incident);
        return new Verdict(next, true, incident);
      }
      out = next;
    }
    return new Verdict(out, out.rewritten(), null);
  }

  private static long utf8Bytes(Object tree) {
    return Json.write(tree).getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * A prompt, resource or completion result the chain will not send: the JSON-RPC error the edge
   * answers instead, with a message written for the client and the {@code mcpfusion/error} data.
   */
  public static final class Refused extends RuntimeException {
    private final int code;
    private final transient Object data;

    private Refused(int code, String message, Object data) {
      super(message, null, false, false);
      this.code = code;
      this.data = data;
    }

    static Refused internal(String origin, String incident) {
      Reply reply = ErrorReplies.internal(origin, null, incident);
      return new Refused(JsonRpc.INTERNAL_ERROR, reply.text(), reply.meta().get(Meta.ERROR));
    }

    static Refused withheld(String code, String message, String incident) {
      Reply reply = ErrorReplies.withheld(code, message, incident);
      return new Refused(JsonRpc.INTERNAL_ERROR, reply.text(), reply.meta().get(Meta.ERROR));
    }

    static Refused tooLarge(String origin, Outbound.Channel channel, int cap) {
      String kind = switch (channel) {
        case PROMPT -> "prompt";
        case RESOURCE -> "resource";
        default -> "completion";
      };
      Reply reply = ErrorReplies.answerTooLarge(origin, kind, cap);
      return new Refused(JsonRpc.INTERNAL_ERROR, reply.text(), reply.meta().get(Meta.ERROR));
    }

    /** The JSON-RPC error code. */
    public int code() {
      return code;
    }

    /** The error's {@code data}: the {@code mcpfusion/error} object. */
    public Object data() {
      return data;
    }
  }
}
