package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.wire.JsonRpc;
import dev.mcpfusion.core.wire.ProtocolVersions;
import java.util.Map;

/**
 * The span and duration of each message whose answer no narrower path traces — {@code initialize},
 * {@code ping}, the lists, {@code logging/setLevel}, {@code server/discover}, every notification —
 * on the one tracing path ({@link RequestTrace#message}). A request's span ends when its reply is
 * written, on the dispatch's sink (a session that closes first ends the spans it still watches);
 * a notification's when its dispatch returns. {@code tools/call},
 * {@code prompts/get}, {@code resources/read} and {@code completion/complete} start their own span
 * once they know their target, so none is started here.
 */
final class MessageTraces {
  private MessageTraces() {}

  /** The trace of {@code message}, or {@link RequestTrace#OFF} when another path traces it. */
  @SuppressWarnings("unchecked")
  static RequestTrace start(FusionTracer observer, Message message, Inbound inbound,
      EdgeSession session) {
    Message.Kind kind = message.kind();
    if (kind != Message.Kind.REQUEST && kind != Message.Kind.NOTIFICATION) {
      return RequestTrace.OFF;
    }
    String method = message.method();
    if (kind == Message.Kind.REQUEST && tracedByTarget(method)) {
      return RequestTrace.OFF;
    }
    Map<?, ?> params = message.params();
    Map<String, Object> meta = params != null && params.get("_meta") instanceof Map<?, ?> m
        ? (Map<String, Object>) m : null;
    boolean modern = Edge.isModern(message, inbound);
    String version = modern
        ? (message.metaProtocolVersion() instanceof String v ? v : ProtocolVersions.MODERN)
        : Edge.protocolVersion(inbound, session);
    RequestTrace trace = RequestTrace.message(observer, method,
        kind == Message.Kind.REQUEST ? message.id() : null, inbound.headers(), meta,
        session == null ? null : session.id(), version, inbound.networkTransport());
    if (kind == Message.Kind.REQUEST && session != null) {
      session.watch(message.id(), trace);
    }
    return trace;
  }

  private static boolean tracedByTarget(String method) {
    return JsonRpc.TOOLS_CALL.equals(method) || JsonRpc.PROMPTS_GET.equals(method)
        || JsonRpc.RESOURCES_READ.equals(method) || JsonRpc.COMPLETE.equals(method);
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
      trace.rpcError(errorCode, null, null);
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
