package dev.mcpfusion.http;

import dev.mcpfusion.core.edge.Sink;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one POSTed request's messages go. Its reply alone is a plain {@code application/json}
 * body; when the call sends the client something first (progress, a log message, a sampling or
 * elicitation request), the response turns into an event stream ({@code text/event-stream}) on
 * which those messages and then the reply are events — the client reads them in order and may
 * answer a request with another POST while this one is still open. A client whose
 * {@code Accept} does not allow event streams gets those messages on its GET stream instead.
 *
 * <p>In a session, the stream is resumable ({@link SessionStreams}): each event carries an id and
 * is stored first, so when the connection breaks the call runs on, its events wait, and a GET with
 * {@code Last-Event-ID} receives them and the reply. A stateless (2026-07-28) stream has no ids:
 * that era has no resumption.
 */
final class PostStream implements Sink {
  private static final Logger log = LoggerFactory.getLogger(PostStream.class);
  private final Sink replies;
  private final HttpSessions.Session session;
  private final HttpServletResponse resp;
  private final boolean streamable;
  /** The JSON-RPC id of the request whose messages go here. */
  private final Object requestId;
  private boolean streaming;
  private boolean finished;
  /** A session's streamed response, resumable; {@code null} for a stateless one (no session, no ids). */
  private SessionStreams.Stream resumable;
  /** Whether the reply left while the request's thread was still held by its handler. */
  private volatile boolean held;
  /** Whether the reply may leave while the handler still holds the request's thread. */
  private boolean early;

  /**
   * @param replies where the reply goes (the servlet writes it once the call is done)
   * @param session where messages go that this response cannot carry; {@code null} for a
   *     stateless request, whose such messages are dropped
   * @param requestId the request's JSON-RPC id
   */
  PostStream(Sink replies, HttpSessions.Session session, HttpServletResponse resp,
      boolean streamable, Object requestId) {
    this.replies = replies;
    this.requestId = requestId;
    this.session = session;
    this.resp = resp;
    this.streamable = streamable;
  }

  /** Marks a call whose reply may leave before its handler returns (a deadline's TIMEOUT). */
  PostStream repliesEarly() {
    early = true;
    return this;
  }

  /** The reply leaves while the handler may still hold the request's thread (a timeout, a drain's cut). */
  void leftWhileHeld() {
    held = true;
  }

  /** Whether the edge sent the reply while the handler still held the request's thread. */
  boolean isHeld() {
    return held;
  }

  @Override
  public void reply(Object id, int errorCode, byte[] json) {
    replies.reply(id, errorCode, json);
  }

  @Override
  public void replyWhileHeld(Object id, int errorCode, byte[] json) {
    held = true;
    replies.replyWhileHeld(id, errorCode, json);
  }

  @Override
  public void push(byte[] json) {
    synchronized (this) {
      if (streamable && !finished) {
        try {
          if (!streaming) {
            HttpFraming.startEventStream(resp);
            if (early) {
              // Headers leave with the first event, before anyone knows whether a deadline will
              // end the stream while the handler still runs: close the connection after it, as
              // an early body does (see finish), so the client's next request never waits.
              resp.setHeader("Connection", "close");
            }
            streaming = true;
            if (session != null) {
              resumable = session.streams().openPost(
                  new SseConnection(resp.getOutputStream(), null), requestId);
            }
          }
          if (resumable != null) {
            resumable.send(json);
            return;
          }
          SseConnection.write(resp.getOutputStream(), null, json);
          return;
        } catch (IOException e) {
          log.debug("The client left a streamed response", e);
          finished = true;
          return;
        }
      }
    }
    // Sent after the reply, or to a client that reads no streamed responses: the GET stream.
    (session == null ? replies : session).push(json);
  }

  /**
   * Writes the reply as the stream's last event; false when the response is not a stream (the
   * caller writes it as the body).
   *
   * <p>A reply that leaves while the handler still holds the request's thread (a deadline's
   * {@code TIMEOUT}) must not leave the client waiting on that thread: the container completes
   * the exchange only when the thread returns, and HTTP/1.1 serves the connection's next request
   * only after that. So a body is sent with {@code Connection: close} (the client takes a new
   * connection for its next request), and a stream is ended now rather than at completion.
   */
  synchronized boolean finish(byte[] reply) throws IOException {
    finished = true;
    if (!streaming) {
      if (held) {
        resp.setHeader("Connection", "close");
      }
      return false;
    }
    if (resumable != null) {
      resumable.end(reply);
    } else {
      SseConnection.write(resp.getOutputStream(), null, reply);
    }
    if (held) {
      resp.getOutputStream().close();
    }
    return true;
  }

  /** A stateless response whose client accepts an event stream can stay open for a listen. */
  @Override
  public boolean holdsStreams() {
    return streamable && session == null;
  }

  @Override
  public boolean heartbeat() {
    synchronized (this) {
      if (!streaming || finished) {
        return false;
      }
      try {
        SseConnection.comment(resp.getOutputStream());
        return true;
      } catch (IOException e) {
        log.debug("The client left a held event stream", e);
        finished = true;
        return false;
      }
    }
  }
}
