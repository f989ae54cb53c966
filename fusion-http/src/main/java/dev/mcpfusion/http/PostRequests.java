package dev.mcpfusion.http;

import static dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR;
import static dev.mcpfusion.wire.JsonRpc.INVALID_REQUEST;
import static dev.mcpfusion.http.HttpFraming.EVENT_STREAM;
import static dev.mcpfusion.http.HttpFraming.SESSION_HEADER;
import static dev.mcpfusion.http.HttpFraming.accepts;
import static dev.mcpfusion.http.HttpFraming.error;
import static dev.mcpfusion.http.HttpFraming.send;

import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.core.edge.Sink;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.wire.JsonRpc;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POST: one JSON-RPC message in the body, of either era. The body is capped (413), parsed once by
 * the edge, routed to its era (a 2026-07-28 message is answered without a session; {@code
 * initialize} opens a session; anything else names one), and its reply written as the body or as
 * the last event of a streamed response. Both eras are answered by the same code; what differs
 * is a {@link PostCall}.
 */
final class PostRequests {
  private static final Logger log = LoggerFactory.getLogger(PostRequests.class);
  /** How much of an oversized body is scanned for the message's id. */
  private static final int OVERSIZED_PREFIX = 64 * 1024;
  /** The most body bytes read and discarded to deliver a clean 413 instead of a connection reset. */
  private static final long MAX_DISCARD = 64L * 1024 * 1024;
  /** A request timeout longer than this (a year) counts as a year, far from overflowing. */
  private static final long MAX_DEADLINE_NANOS = TimeUnit.DAYS.toNanos(365);
  static final String CUT_MESSAGE = "Service Unavailable: the server shut down before this "
      + "request finished, so whether it took effect is unknown; check before repeating a change, "
      + "or retry a read.";
  private static final String DUPLICATE =
      "Invalid Request: a request with this id is already in progress in this session.";

  private final HttpOptions options;
  private final Edge edge;
  private final HttpSessions sessions;
  private final RequestChecks checks;
  /** The calls whose reply is awaited now: a drain that runs out of grace answers them as cut. */
  private final Set<PostCall> open = ConcurrentHashMap.newKeySet();
  /** Times out the open calls that run user code, past their deadline. */
  private final ReplyDeadlines deadlines = new ReplyDeadlines(open);
  /** The tools' custom {@code Mcp-Param-*} headers (SEP-2243). */
  private final ParamHeaders params;

  PostRequests(HttpOptions options, Edge edge, HttpSessions sessions, RequestChecks checks) {
    this.options = options;
    this.edge = edge;
    this.sessions = sessions;
    this.checks = checks;
    this.params = new ParamHeaders(edge.paramHeaders());
  }

  /** The request attribute holding a body's message when it was read before the servlet ran. */
  static final String PARSED = "dev.mcpfusion.http.parsed";

  /** The message in {@code body} ({@link IoThreadFront} reads it before the servlet runs). */
  Message read(byte[] body, int length) {
    return edge.read(body, length);
  }

  /**
   * Whether answering {@code message} never waits ({@link Edge#neverWaits}).
   *
   * @param versionHeader the request's {@code MCP-Protocol-Version}, or {@code null}
   */
  boolean neverWaits(Message message, String versionHeader) {
    Inbound inbound = versionHeader == null ? Inbound.flat("http", Map.of())
        : Inbound.flat("http", Map.of("mcp-protocol-version", versionHeader));
    return edge.neverWaits(message, inbound);
  }

  /**
   * @param unsupportedVersion whether the {@code MCP-Protocol-Version} header names a version this
   *     endpoint does not speak: a 2026-07-28-style request (its version in {@code _meta}) is then
   *     answered by that era's UnsupportedProtocolVersionError, which lists the versions it
   *     supports; any other gets 400 with its id
   */
  void post(HttpServletRequest req, HttpServletResponse resp, Map<String, String> headers,
      boolean unsupportedVersion) throws IOException {
    if (!"application/json".equals(HttpFraming.mediaType(req.getContentType()))) {
      send(resp, 415, error(null, INVALID_REQUEST, "Unsupported Media Type: send Content-Type: application/json."));
      return;
    }
    String accept = req.getHeader("Accept");
    if (accept != null && !accepts(accept, "application/json")) {
      send(resp, 406, error(null, INVALID_REQUEST, "Not Acceptable: the Accept header must allow application/json."));
      return;
    }
    Message message = readCapped(req, resp);
    if (message == null) {
      return;
    }
    if (message.kind() == Message.Kind.INVALID) {
      send(resp, 400, error(message.id(), message.errorCode(), message.errorMessage()));
      return;
    }
    Inbound inbound = Inbound.flat("http", headers).withCaller(Challenges.caller(req));
    List<String> missing = edge.missingScopes(message, inbound);
    if (!missing.isEmpty()) {
      resp.setHeader("WWW-Authenticate", Challenges.insufficientScope(options.auth(), missing));
      send(resp, 403, error(message.id(), INVALID_REQUEST, "Forbidden: this call needs the scope"
          + (missing.size() == 1 ? " " : "s ") + String.join(" ", missing)
          + ", which the access token does not grant; get a token with "
          + (missing.size() == 1 ? "it" : "them") + "."));
      return;
    }
    if (unsupportedVersion && !message.isModern()) {
      send(resp, 400, RequestChecks.unsupportedVersionBody(message.id()));
      return;
    }
    if (Edge.isModern(message, inbound)) {
      modern(req, resp, inbound, message);
      return;
    }
    if (message.isRequest("initialize")) {
      initialize(message, inbound, resp);
      return;
    }
    Object id = message.id();
    HttpSessions.Session session = checks.session(req, resp, id,
        "Bad Request: missing Mcp-Session-Id header; send initialize first.");
    if (session == null) {
      return;
    }
    if (message.kind() == Message.Kind.RESPONSE && sessions.answers() != null) {
      sessions.answers().post(session, message, resp);
      return;
    }
    if (message.kind() != Message.Kind.REQUEST) {
      edge.dispatch(message, inbound, session.edge, session);
      resp.setStatus(202);
      resp.setContentLength(0);
      return;
    }
    PostCall call = PostCall.Classic.of(session, message, options.requestTimeout());
    if (call == null) {
      send(resp, 400, error(id, INVALID_REQUEST, DUPLICATE));
      return;
    }
    answer(req, resp, call, inbound);
    if (message.isRequest(JsonRpc.LOGGING_SET_LEVEL)) {
      // Other instances serve the session at the new level too.
      try {
        sessions.save(session);
      } catch (HttpSessions.StoreUnavailable e) {
        log.warn("Session {}: the session store did not take its new log level", session.id(),
            e.getCause());
      }
    }
  }

  /**
   * A 2026-07-28 message: stateless, no session. A request is answered by the edge as
   * {@code application/json}, with the HTTP status the SDK's modern transport gives each JSON-RPC
   * error code; a notification gets 202 (stateless HTTP cancels by closing the connection).
   * The standard headers ({@link StandardHeaders}) must be sent and agree with the body (400 /
   * -32020 otherwise), for a notification too, and so must a tool's custom {@code Mcp-Param-*}
   * headers ({@link ParamHeaders}).
   */
  private void modern(HttpServletRequest req, HttpServletResponse resp, Inbound inbound,
      Message message) throws IOException {
    Object id = message.id();
    if (message.kind() == Message.Kind.RESPONSE) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Invalid Request: the server accepts requests or notifications only."));
      return;
    }
    String mismatch = StandardHeaders.problem(inbound, message);
    if (mismatch == null) {
      mismatch = params.problem(inbound, message);
    }
    if (mismatch != null) {
      send(resp, 400, error(id, JsonRpc.HEADER_MISMATCH, mismatch));
      return;
    }
    if (message.kind() == Message.Kind.NOTIFICATION) {
      resp.setStatus(202);
      resp.setContentLength(0);
      return;
    }
    answer(req, resp, new PostCall.Modern(message), inbound);
  }

  /**
   * Answers one request of either era on this thread: as the body, or as the last event of a
   * streamed response when the call sent the client something first.
   */
  private void answer(HttpServletRequest req, HttpServletResponse resp, PostCall call,
      Inbound inbound) throws IOException {
    PostStream stream = new PostStream(call.replies(), call.overflow(), resp,
        accepts(req.getHeader("Accept"), EVENT_STREAM), call.request.id());
    if (edge.runsCall(call.request, inbound)) {
      call.later = edge.repliesLater(call.request);
      // User code runs on this thread: a reply that must leave before the handler returns (a
      // deadline's TIMEOUT, a drain's cut) is written from another thread; see answerCall.
      answerCall(req, resp, call, inbound, edge.repliesEarly() ? stream.repliesEarly() : stream);
      return;
    }
    HttpSessions.Reply reply = await(call, inbound, stream);
    if (!stream.finish(reply.json())) {
      send(resp, call.status(reply), reply.json());
    }
  }

  /**
   * A call that runs user code: its reply may come before the dispatch returns (the usual case,
   * written by this thread), while the handler still holds this thread (a deadline's
   * {@code TIMEOUT} from the timer, a drain's cut: written at once by that thread) or after the
   * dispatch returned (an async action: written through an async context). {@link Exchange}
   * decides which, once.
   */
  private void answerCall(HttpServletRequest req, HttpServletResponse resp, PostCall call,
      Inbound inbound, PostStream stream) {
    Exchange exchange = new Exchange();
    Duration timeout = call.timeout();
    if (timeout != null) {
      call.deadline = System.nanoTime() + Math.min(timeout.toNanos(), MAX_DEADLINE_NANOS);
    }
    call.opened();
    open.add(call);
    if (timeout != null) {
      deadlines.watch(call.deadline);
    }
    call.answer.whenComplete((reply, failure) -> {
      // A timeout, a drain's cut, or a reply the edge sent while the handler runs on (a deadline's
      // TIMEOUT, a task's handle): each must leave now.
      boolean early = failure != null || call.cut || stream.isHeld();
      switch (exchange.completed(early)) {
        case HELD -> {
          // The handler may still hold the request's thread: see PostStream#finish.
          stream.leftWhileHeld();
          try {
            deliver(resp, call, stream, reply, failure, true);
          } finally {
            exchange.heldWritten();
          }
        }
        case ASYNC -> {
          if (failure != null || call.cut) {
            stream.leftWhileHeld();
          }
          try {
            deliver(resp, call, stream, reply, failure, false);
          } finally {
            exchange.async().complete();
          }
        }
        case REQUEST_THREAD -> { }
      }
    });
    edge.dispatch(call.request, inbound, call.edgeSession(), stream);
    call.dispatched();
    if (exchange.dispatched(req, call.answer)) {
      HttpSessions.Reply reply = null;
      Throwable failure = null;
      try {
        reply = call.answer.getNow(null);
      } catch (java.util.concurrent.CompletionException e) {
        // Timed out the moment the handler returned: its callback left the write to this thread.
        failure = e.getCause();
      }
      deliver(resp, call, stream, reply, failure, false);
    }
  }

  /**
   * Writes a call's reply (or, when {@code failure} is set, that it timed out) and settles the
   * call; a client that went away is logged, not thrown. {@code flush}: push it out now, for a
   * reply written while the handler still holds the request's thread.
   */
  private void deliver(HttpServletResponse resp, PostCall call, PostStream stream,
      HttpSessions.Reply reply, Throwable failure, boolean flush) {
    try {
      write(resp, call, stream, reply, failure);
      if (flush) {
        resp.flushBuffer();
      }
    } catch (IOException | RuntimeException e) {
      log.debug("{}: the client went away before reply {}", call.owner(), call.request.id(), e);
    } finally {
      open.remove(call);
      call.settled();
    }
  }

  /** Writes a call's reply (or, when {@code failure} is set, that it timed out). */
  private void write(HttpServletResponse resp, PostCall call, PostStream stream,
      HttpSessions.Reply reply, Throwable failure) throws IOException {
    HttpSessions.Reply answered = failure == null ? reply : timedOut(call);
    if (!stream.finish(answered.json())) {
      send(resp, call.status(answered), answered.json());
    }
  }

  /**
   * Hands a request to the edge and waits for its reply (or answers that it did not complete in
   * time); the call's messages before its reply go to {@code out}.
   */
  private HttpSessions.Reply await(PostCall call, Inbound inbound, Sink out) {
    Message request = call.request;
    call.opened();
    open.add(call);
    try {
      edge.dispatch(request, inbound, call.edgeSession(), out);
      call.dispatched();
      Duration timeout = call.timeout();
      return timeout == null ? call.answer.get()
          : call.answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return timedOut(call);
    } catch (ExecutionException e) {
      call.abandoned();
      String incident = ErrorReplies.newIncidentId();
      log.error("{}: request {} ({}) failed (incident {})", call.owner(), request.id(),
          request.method(), incident, e);
      return new HttpSessions.Reply(INTERNAL_ERROR,
          error(request.id(), INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      call.abandoned();
      return new HttpSessions.Reply(INTERNAL_ERROR,
          error(request.id(), INTERNAL_ERROR, "The server is shutting down."));
    } finally {
      open.remove(call);
      call.settled();
    }
  }

  /**
   * Answers every call still awaiting its reply with a clean error carrying its id: the server is
   * stopping and the call did not finish within the grace. Returns how many were cut.
   * Calls that run user code are answered asynchronously ({@link #answer}) so that this reply can
   * leave while the handler still holds the request's thread.
   */
  int cutOpenCalls() {
    int cut = 0;
    for (PostCall call : open) {
      byte[] body = error(call.request.id(), INTERNAL_ERROR, CUT_MESSAGE);
      call.cut = true;
      if (call.answer.complete(new HttpSessions.Reply(INTERNAL_ERROR, body))) {
        call.abandoned();
        cut++;
      }
    }
    return cut;
  }

  ReplyDeadlines deadlines() {
    return deadlines;
  }

  /** Stops the deadlines' timer (the server is stopping; the drain answered what was open). */
  void stop() {
    deadlines.stop();
  }

  private HttpSessions.Reply timedOut(PostCall call) {
    call.abandoned();
    log.warn("{}: request {} ({}) did not complete within {}", call.owner(), call.request.id(),
        call.request.method(), call.timeout());
    return new HttpSessions.Reply(INTERNAL_ERROR,
        error(call.request.id(), INTERNAL_ERROR, "The request did not complete in time."));
  }

  private void initialize(Message request, Inbound inbound, HttpServletResponse resp)
      throws IOException {
    HttpSessions.Session session = sessions.newSession();
    if (session == null) {
      resp.setHeader("Retry-After", String.valueOf(McpHttpServlet.SESSIONS_RETRY_AFTER_SECONDS));
      send(resp, 503, error(request.id(), INTERNAL_ERROR, "Service Unavailable: this server has "
          + options.maxSessions() + " open sessions, the most it allows; retry after "
          + McpHttpServlet.SESSIONS_RETRY_AFTER_SECONDS + " seconds, or end an unused session with DELETE."));
      return;
    }
    session.ownedBy(inbound.caller());
    PostCall call = PostCall.Classic.of(session, request, options.requestTimeout());
    HttpSessions.Reply reply = call == null ? null : await(call, inbound, session);
    if (reply == null || reply.errorCode() != 0) {
      session.close(true);
      send(resp, 200, reply == null ? error(request.id(), INTERNAL_ERROR, "Internal error.") : reply.json());
      return;
    }
    try {
      sessions.register(session);
    } catch (HttpSessions.StoreUnavailable e) {
      session.close(true);
      log.warn("initialize: the session store could not save a new session", e.getCause());
      RequestChecks.storeUnavailable(resp, request.id());
      return;
    }
    resp.setHeader(SESSION_HEADER, session.id());
    send(resp, 200, reply.json());
  }

  /**
   * The message in the body, read once by the edge; or {@code null} after answering 413 when the
   * body is larger than the cap (with the message's id when a scan of its first bytes finds it).
   */
  private Message readCapped(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    // Only the I/O-thread front parses before the servlet; without it no POST asks.
    if (options.answerOnIoThread() && req.getAttribute(PARSED) instanceof Message parsed) {
      return parsed;
    }
    long max = options.maxBodyBytes();
    long declared = req.getContentLengthLong();
    InputStream in = req.getInputStream();
    byte[] body;
    if (declared >= 0 && declared <= max) {
      // The usual case: the length is known, so the body is read into one array of that size.
      body = new byte[(int) declared];
      int read = in.readNBytes(body, 0, body.length);
      return edge.read(body, read);
    }
    if (declared < 0) {
      // Chunked: read at most one byte more than the cap, to tell whether it is over.
      body = in.readNBytes((int) Math.min(max + 1, Integer.MAX_VALUE - 8));
      if (body.length <= max) {
        return edge.read(body);
      }
    } else {
      body = in.readNBytes(OVERSIZED_PREFIX);
    }
    Message oversized = edge.oversized(body, Math.min(body.length, OVERSIZED_PREFIX), max);
    // Read the rest (bounded) so the client receives the 413 rather than a reset connection.
    if (declared <= MAX_DISCARD) {
      discard(in, MAX_DISCARD);
    } else {
      resp.setHeader("Connection", "close");
    }
    send(resp, 413, error(oversized.id(), INVALID_REQUEST,
        "Payload Too Large: the body must not exceed " + max + " bytes."));
    return null;
  }

  private static void discard(InputStream in, long limit) {
    byte[] buffer = new byte[64 * 1024];
    long total = 0;
    try {
      int n;
      while (total < limit && (n = in.read(buffer)) > 0) {
        total += n;
      }
    } catch (IOException e) {
      log.trace("Client stopped sending an oversized body", e);
    }
  }
}
