package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the answer to one request on the thread that dispatched it, tracked in its session so
 * that a {@code notifications/cancelled} can stop it, and answers any failure of the answer
 * itself with an internal error (logged with an incident id, never on the wire).
 */
final class RequestRunner {
  private static final Logger LOG = LoggerFactory.getLogger(RequestRunner.class);

  private RequestRunner() {}

  /**
   * Runs the answer to one request on this thread, tracked so that a
   * {@code notifications/cancelled} can stop it: a cancelled call's thread is interrupted and its
   * late reply discarded. A second request with the id of one still in flight is refused (its
   * reply would be taken for the other's).
   */
  static void run(Message message, EdgeSession session, Answer answer, Sink out) {
    if (session == null) {
      runGuarded(message, answer, out, null);
      return;
    }
    EdgeSession.Call call = session.track(message.id());
    if (call == null) {
      out.reply(null, JsonRpc.INVALID_REQUEST, Bodies.error(null, JsonRpc.INVALID_REQUEST,
          "Invalid Request: a request with id " + Echo.id(message.id())
              + " is still in flight; use a new id."));
      return;
    }
    Sink guarded = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        if (!call.cancelled()) {
          out.reply(id, errorCode, json);
        }
      }

      @Override
      public void replyWhileHeld(Object id, int errorCode, byte[] json) {
        if (!call.cancelled()) {
          out.replyWhileHeld(id, errorCode, json);
        }
      }

      @Override
      public void push(byte[] json) {
        if (!call.cancelled()) {
          out.push(json);
        }
      }
    };
    session.opened();
    call.running(Thread.currentThread());
    try {
      if (!call.cancelled()) {
        runGuarded(message, answer, guarded, call);
      }
    } finally {
      call.running(null);
      Thread.interrupted(); // a cancellation's interrupt must not outlive the call
      session.done(call); // an async call stays tracked until its stage answers
    }
  }

  /** The answer to one request: writes to {@code out}; {@code call} is its tracking, or {@code null}. */
  @FunctionalInterface
  interface Answer {
    void answer(Sink out, EdgeSession.Call call);
  }

  private static void runGuarded(Message message, Answer answer, Sink out, EdgeSession.Call call) {
    try {
      answer.answer(out, call);
    } catch (RuntimeException | Error e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("Answering {} failed (incident {})", message, incident, e);
      out.reply(message.id(), JsonRpc.INTERNAL_ERROR, Bodies.error(message.id(), JsonRpc.INTERNAL_ERROR,
          "Internal error (incident " + incident + ")."));
    }
  }
}
