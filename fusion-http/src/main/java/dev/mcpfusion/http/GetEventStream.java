package dev.mcpfusion.http;

import static dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR;
import static dev.mcpfusion.wire.JsonRpc.INVALID_REQUEST;
import static dev.mcpfusion.http.HttpFraming.EVENT_STREAM;
import static dev.mcpfusion.http.HttpFraming.SESSION_HEADER;
import static dev.mcpfusion.http.HttpFraming.error;
import static dev.mcpfusion.http.HttpFraming.send;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET: opens a session's event stream, on which the server sends what no POST response can carry
 * (notifications, requests to the client) until the client goes away or the session ends; with
 * {@code Last-Event-ID}, resumes the stream that event belongs to — the GET stream or a POST
 * response that became a stream — replaying what the client missed ({@link SessionStreams}).
 */
final class GetEventStream {
  private static final Logger log = LoggerFactory.getLogger(GetEventStream.class);
  static final String LAST_EVENT_ID = "Last-Event-ID";

  private final RequestChecks checks;

  GetEventStream(RequestChecks checks) {
    this.checks = checks;
  }

  void get(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!HttpFraming.accepts(req.getHeader("Accept"), EVENT_STREAM)) {
      send(resp, 406, error(null, INVALID_REQUEST, "Not Acceptable: the event stream needs Accept: text/event-stream."));
      return;
    }
    HttpSessions.Session session = checks.session(req, resp, null,
        "Bad Request: missing Mcp-Session-Id header.");
    if (session == null) {
      return;
    }
    SessionStreams.Opener open = () -> {
      AsyncContext async = req.startAsync();
      async.setTimeout(0);
      HttpFraming.startEventStream(resp);
      resp.setHeader(SESSION_HEADER, session.id());
      // A client waits for the headers before it reads events, so they leave now, not with the first event.
      resp.flushBuffer();
      return new SseConnection(resp.getOutputStream(), async);
    };
    String lastEventId = req.getHeader(LAST_EVENT_ID);
    if (lastEventId == null) {
      session.streams().openGet(open);
      return;
    }
    String refused;
    try {
      refused = session.streams().resume(lastEventId, open);
    } catch (EventStoreUnavailable e) {
      log.warn("Session {}: the event store could not replay the stream of {}", session.id(),
          lastEventId, e.getCause());
      resp.setHeader("Retry-After", String.valueOf(RequestChecks.STORE_RETRY_AFTER_SECONDS));
      send(resp, 503, error(null, INTERNAL_ERROR, "Service Unavailable: the event store did not "
          + "answer, so this server cannot resume the stream now; retry after "
          + RequestChecks.STORE_RETRY_AFTER_SECONDS + " second with the same Last-Event-ID."));
      return;
    }
    if (refused != null) {
      send(resp, 400, error(null, INVALID_REQUEST, refused));
    }
  }
}
