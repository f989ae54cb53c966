package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The span and duration of each message whose answer no narrower path traces — {@code initialize},
 * {@code ping}, the lists, {@code logging/setLevel}, {@code server/discover}, every notification —
 * on the one tracing path ({@link SpanStart#message}). A request's span ends when its reply is
 * written, on the dispatch's sink (a session that closes first ends the spans it still watches);
 * a notification's when its dispatch returns. {@code tools/call},
 * {@code prompts/get}, {@code resources/read} and {@code completion/complete} start their own span
 * once they know their target; one refused before that (no {@code name}, malformed params, a
 * version or session it lacks) gets its span here, named after its method alone, when its refusal
 * is written ({@link #untargeted}).
 */
final class MessageTraces {
  private MessageTraces() {}

  /** The trace of {@code message}, a request or notification no narrower path traces. */
  static RequestTrace start(FusionTracer observer, Message message, Inbound inbound,
      EdgeSession session) {
    Message.Kind kind = message.kind();
    if (kind != Message.Kind.REQUEST && kind != Message.Kind.NOTIFICATION) {
      return RequestTrace.OFF;
    }
    RequestTrace trace = begin(observer, message, inbound, session);
    if (kind == Message.Kind.REQUEST && session != null) {
      session.watch(message.id(), trace);
    }
    return trace;
  }

  @SuppressWarnings("unchecked")
  private static RequestTrace begin(FusionTracer observer, Message message, Inbound inbound,
      EdgeSession session) {
    Message.Kind kind = message.kind();
    String method = message.method();
    Map<?, ?> params = message.params();
    Map<String, Object> meta = params != null && params.get("_meta") instanceof Map<?, ?> m
        ? (Map<String, Object>) m : null;
    boolean modern = Edge.isModern(message, inbound);
    String version = modern
        ? (message.metaProtocolVersion() instanceof String v ? v : ProtocolVersions.MODERN)
        : Edge.protocolVersion(inbound, session);
    return SpanStart.message(observer, method,
        kind == Message.Kind.REQUEST ? message.id() : null, inbound.headers(), meta,
        session == null ? null : session.id(), version, inbound.networkTransport());
  }

  /**
   * Whether {@code message} is a request whose span the path serving its target starts: a
   * {@code tools/call}, or a {@code prompts/get}, {@code resources/read} or
   * {@code completion/complete} the edge answers itself (a server without prompts and resources
   * leaves them to the SDK, which answers "method not found": a plain message, traced as such).
   */
  static boolean tracedByTarget(Message message, FeatureRequests features) {
    return message.kind() == Message.Kind.REQUEST
        && (JsonRpc.TOOLS_CALL.equals(message.method()) || features.runsUserCode(message.method()));
  }

  /**
   * {@code out} for a request {@link #tracedByTarget traced by its target}: a reply written before
   * that path started the span ({@link Message#targetTraced()}) — the request was refused before
   * it named a target it could be traced by — gets a span named after the method alone, started
   * and ended as the refusal is written (a refusal is written at once, so the span's start is the
   * request's to within the time it took to check it), with its {@code error.type} and
   * {@code rpc.response.status_code}, and its operation's duration.
   */
  static Sink untargeted(FusionTracer observer, Sink out, Message message, Inbound inbound,
      EdgeSession session) {
    AtomicBoolean traced = new AtomicBoolean();
    return new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        refused(errorCode, json);
        out.reply(id, errorCode, json);
      }

      @Override
      public void replyWhileHeld(Object id, int errorCode, byte[] json) {
        refused(errorCode, json);
        out.replyWhileHeld(id, errorCode, json);
      }

      @Override
      public void push(byte[] json) {
        out.push(json);
      }

      private void refused(int errorCode, byte[] json) {
        if (message.isTargetTraced() || !traced.compareAndSet(false, true)) {
          return;
        }
        answered(null, message.id(), errorCode, json, begin(observer, message, inbound, session));
      }
    };
  }

  /** {@code out}, telling {@code trace} of the reply to {@code message} when the edge writes it. */
  static Sink watch(Sink out, Message message, EdgeSession session, RequestTrace trace) {
    if (message.kind() != Message.Kind.REQUEST) {
      return out;
    }
    return new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        answered(session, id, errorCode, json, trace);
        out.reply(id, errorCode, json);
      }

      @Override
      public void replyWhileHeld(Object id, int errorCode, byte[] json) {
        answered(session, id, errorCode, json, trace);
        out.replyWhileHeld(id, errorCode, json);
      }

      @Override
      public void push(byte[] json) {
        out.push(json);
      }
    };
  }

  /** Ends the trace of the request answered by this reply. */
  static void answered(EdgeSession session, Object id, int errorCode, byte[] json,
      RequestTrace trace) {
    if (session != null) {
      session.unwatch(id, trace);
      trace.negotiated(session.protocolVersion());
    }
    trace.written(json, errorCode);
    if (errorCode == 0) {
      trace.succeeded();
    } else {
      // The server's own failure is INTERNAL_ERROR, as on a call's span (status ERROR); any other
      // code is the error.type as text.
      trace.rpcError(errorCode, errorCode == JsonRpc.INTERNAL_ERROR ? Codes.INTERNAL_ERROR : null,
          null);
    }
    trace.end();
  }

  /**
   * The dispatch of {@code message} returned: a notification's trace ends now; a request's ends
   * with its reply, which may be written later, from another thread — unless nothing will write one.
   */
  static void dispatched(Message message, EdgeSession session, RequestTrace trace) {
    if (message.kind() == Message.Kind.NOTIFICATION) {
      trace.succeeded();
      trace.end();
    } else if (session == null || !session.watching(message.id(), trace)) {
      // Answered already (end() is then a no-op), or by nothing: the span says so (no status OK).
      trace.end();
    }
  }
}
