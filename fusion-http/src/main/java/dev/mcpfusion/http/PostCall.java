package dev.mcpfusion.http;

import static dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR;

import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.core.edge.Sink;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.wire.JsonRpc;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the two protocol eras do differently with one POSTed request: where its reply is awaited,
 * where the messages its response cannot carry go, how long it may take, and which HTTP status
 * its reply gets. {@link PostRequests} writes everything else once, for both.
 */
abstract class PostCall {
  final Message request;
  /** Completed with the reply (by the edge, or by the era when the edge wrote none). */
  final CompletableFuture<HttpSessions.Reply> answer;
  /** Set when a drain out of grace answers the call in its handler's place. */
  volatile boolean cut;
  /** Whether the edge answers the call after its dispatch returns (an async action's call). */
  volatile boolean later;
  /** {@link #deadline} of a call the {@link ReplyDeadlines} do not watch. */
  static final long NO_DEADLINE = Long.MAX_VALUE;
  /**
   * When the call times out ({@link System#nanoTime()}); set before the call is published to the
   * open calls, which the {@link ReplyDeadlines} read.
   */
  long deadline = NO_DEADLINE;

  private PostCall(Message request, CompletableFuture<HttpSessions.Reply> answer) {
    this.request = request;
    this.answer = answer;
  }

  /** Where the edge writes the reply. */
  abstract Sink replies();

  /** Where messages go that the response cannot carry; {@code null}: they are dropped. */
  abstract HttpSessions.Session overflow();

  /** The edge's state of the connection; {@code null} for a stateless request. */
  abstract EdgeSession edgeSession();

  /** How long the reply is awaited once dispatched; {@code null}: the edge answers before dispatch returns. */
  abstract Duration timeout();

  /** The HTTP status that carries {@code reply}. */
  abstract int status(HttpSessions.Reply reply);

  /** The call is about to be dispatched. */
  void opened() {}

  /** The edge's dispatch returned. */
  void dispatched() {}

  /** The call is over (answered, timed out or failed). */
  void settled() {}

  /** Nobody waits for the reply any more (the call timed out or failed). */
  void abandoned() {}

  /** Who the call belongs to, for the log. */
  abstract String owner();

  /**
   * A request of a Streamable HTTP session: its reply comes through the session (the SDK may
   * answer from another thread), messages the response cannot carry go to the session's GET
   * stream, and the call counts as the session's use while it runs.
   */
  static final class Classic extends PostCall {
    private final HttpSessions.Session session;
    private final Duration timeout;

    private Classic(HttpSessions.Session session, Message request,
        CompletableFuture<HttpSessions.Reply> answer, Duration timeout) {
      super(request, answer);
      this.session = session;
      this.timeout = timeout;
    }

    /** The call of {@code request} in {@code session}, or {@code null} when its id is already waiting. */
    static Classic of(HttpSessions.Session session, Message request, Duration timeout) {
      CompletableFuture<HttpSessions.Reply> answer = session.expect(request.id());
      return answer == null ? null : new Classic(session, request, answer, timeout);
    }

    @Override
    Sink replies() {
      return session;
    }

    @Override
    HttpSessions.Session overflow() {
      return session;
    }

    @Override
    EdgeSession edgeSession() {
      return session.edge;
    }

    @Override
    Duration timeout() {
      return timeout;
    }

    @Override
    int status(HttpSessions.Reply reply) {
      return 200;
    }

    @Override
    void opened() {
      session.openRequests.incrementAndGet();
    }

    @Override
    void settled() {
      session.openRequests.decrementAndGet();
      session.touch();
    }

    @Override
    void abandoned() {
      session.forget(request.id());
    }

    @Override
    String owner() {
      return "Session " + session.id();
    }
  }

  /**
   * A stateless 2026-07-28 request: the edge answers it while it is dispatched (or, with a
   * deadline, from the timer's thread); messages the response cannot carry are dropped; the
   * status is the one the SDK's modern transport gives each JSON-RPC code.
   */
  static final class Modern extends PostCall implements Sink {
    private static final Logger log = LoggerFactory.getLogger(Modern.class);
    /** Stands for "the edge wrote no reply": answered 500. */
    private volatile HttpSessions.Reply noReply;

    Modern(Message request) {
      super(request, new CompletableFuture<>());
    }

    @Override
    Sink replies() {
      return this;
    }

    @Override
    public void reply(Object id, int errorCode, byte[] json) {
      answer.complete(new HttpSessions.Reply(errorCode, json));
    }

    @Override
    public void push(byte[] json) {
      // Reached only when the response cannot stream (the client accepts no event stream) or has
      // ended: a stateless request has no other stream to put it on.
      log.debug("Dropped a message sent beside a 2026-07-28 reply");
    }

    @Override
    HttpSessions.Session overflow() {
      return null;
    }

    @Override
    EdgeSession edgeSession() {
      return null;
    }

    @Override
    Duration timeout() {
      return null;
    }

    @Override
    void dispatched() {
      if (answer.isDone() || later) {
        return;
      }
      String incident = ErrorReplies.newIncidentId();
      log.error("The edge sent no reply to modern request {} ({}) (incident {})", request.id(),
          request.method(), incident);
      HttpSessions.Reply none = new HttpSessions.Reply(INTERNAL_ERROR, HttpFraming.error(request.id(),
          INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      noReply = none;
      answer.complete(none);
    }

    @Override
    int status(HttpSessions.Reply reply) {
      if (reply == noReply) {
        return 500;
      }
      return switch (reply.errorCode()) {
        case 0 -> 200;
        case JsonRpc.PARSE_ERROR, JsonRpc.INVALID_REQUEST, JsonRpc.INVALID_PARAMS,
            JsonRpc.HEADER_MISMATCH, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY,
            JsonRpc.UNSUPPORTED_PROTOCOL_VERSION -> 400;
        case JsonRpc.METHOD_NOT_FOUND -> 404;
        default -> 200;
      };
    }

    @Override
    String owner() {
      return "Stateless request";
    }
  }
}
