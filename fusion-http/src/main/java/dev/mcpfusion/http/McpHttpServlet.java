package dev.mcpfusion.http;

import static dev.mcpfusion.core.wire.JsonRpc.INTERNAL_ERROR;
import static dev.mcpfusion.core.wire.JsonRpc.INVALID_PARAMS;
import static dev.mcpfusion.core.wire.JsonRpc.INVALID_REQUEST;
import static dev.mcpfusion.core.wire.JsonRpc.PARSE_ERROR;
import static dev.mcpfusion.core.wire.JsonRpc.SESSION_NOT_FOUND;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.edge.Bodies;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Message;
import dev.mcpfusion.core.edge.ModernEra;
import dev.mcpfusion.core.edge.Sink;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.wire.JsonRpc;
import dev.mcpfusion.core.wire.Meta;
import dev.mcpfusion.core.wire.ProtocolVersions;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Streamable HTTP endpoint (MCP 2025-03-26 … 2025-11-25, with sessions) of one
 * {@link FusionServer}: the framework's HTTP edge in front of the SDK's session logic.
 *
 * <p>HTTP framing and statuses only: Host and Origin are checked (403), the auth hook runs (401),
 * an unsupported {@code MCP-Protocol-Version} is refused (400), the body is capped (413, with the
 * message's id when its top level names one early); then the body goes to the server's
 * {@link Edge}, which parses it once and answers. Every body written is one the edge built.
 *
 * <p>The same endpoint serves the stateless 2026-07-28 protocol: a POST whose message is of that
 * era ({@link Edge#isModern}: its {@code params._meta} names the version, or the
 * {@code MCP-Protocol-Version} header says 2026-07-28) is answered without a session (no
 * initialize, no {@code Mcp-Session-Id}); everything else goes to the Streamable HTTP sessions.
 *
 * <p>Must be registered with {@code asyncSupported = true} (the GET event stream is asynchronous).
 *
 * <p>Public so that another servlet container can host it (the Spring Boot starter registers it
 * on Boot's server): this class and what it uses need no Jetty on the class path, unlike
 * {@link FusionHttp}, which also starts the embedded server and so loads Jetty with it.
 * {@link HttpOptions#bindAddress()}, {@code port()} and {@code path()} are the container's
 * business there and are ignored; Host and Origin are checked against the port the request
 * arrived on. {@link #destroy()} drains calls in flight within the shutdown grace.
 */
public final class McpHttpServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(McpHttpServlet.class);
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
  private static final String SESSION_HEADER = "Mcp-Session-Id";
  private static final String VERSION_HEADER = "MCP-Protocol-Version";
  /** The 2026-07-28 code for MCP headers that disagree with the body. */
  private static final int HEADER_MISMATCH = -32020;
  private static final java.util.regex.Pattern PORT = java.util.regex.Pattern.compile(":\\d{1,5}");
  /** How much of an oversized body is scanned for the message's id. */
  private static final int OVERSIZED_PREFIX = 64 * 1024;
  /** The most body bytes read and discarded to deliver a clean 413 instead of a connection reset. */
  private static final long MAX_DISCARD = 64L * 1024 * 1024;
  /** The {@code Retry-After} of an {@code initialize} turned away because every session is taken. */
  static final int SESSIONS_RETRY_AFTER_SECONDS = 5;

  private final transient HttpOptions options;
  private final transient Edge edge;
  private final transient HttpSessions sessions;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private volatile boolean draining;

  /**
   * The endpoint of {@code server} with {@code options}; register it with
   * {@code asyncSupported = true}.
   */
  public McpHttpServlet(FusionServer server, HttpOptions options) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(options, "options");
    this.options = options;
    this.edge = server.edge();
    this.sessions = new HttpSessions(edge, options.sessionIdleTimeout(), options.maxSessions(),
        options.heartbeatInterval());
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    inFlight.incrementAndGet();
    try {
      serve(req, resp);
    } catch (IOException e) {
      // The client went away mid-exchange: nothing to answer.
      log.debug("I/O failure while serving {} {}", req.getMethod(), req.getRequestURI(), e);
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      log.error("HTTP edge failed (incident {})", incident, e);
      if (!resp.isCommitted()) {
        resp.reset();
        send(resp, 500, error(null, INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      }
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void serve(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (draining) {
      send(resp, 503, error(null, INTERNAL_ERROR, "The server is shutting down; try again later."));
      return;
    }
    if (!hostAllowed(req)) {
      send(resp, 403, error(null, INVALID_REQUEST, "Forbidden: this Host is not allowed."));
      return;
    }
    String origin = req.getHeader("Origin");
    if (origin != null) {
      if (!originAllowed(origin, req)) {
        send(resp, 403, error(null, INVALID_REQUEST, "Forbidden: this Origin is not allowed."));
        return;
      }
      resp.setHeader("Access-Control-Allow-Origin", origin);
      resp.setHeader("Vary", "Origin");
      resp.setHeader("Access-Control-Expose-Headers", SESSION_HEADER + ", " + VERSION_HEADER);
    }
    if ("OPTIONS".equals(req.getMethod())) {
      // CORS preflight: carries no credentials, so it is answered before the auth hook.
      resp.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
      resp.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
      resp.setHeader("Access-Control-Allow-Headers",
          "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
      resp.setHeader("Access-Control-Max-Age", "600");
      resp.setStatus(204);
      return;
    }
    Map<String, String> headers = headers(req);
    HttpAuthenticator auth = options.auth();
    if (auth != null && !authenticated(auth, headers)) {
      resp.setHeader("WWW-Authenticate", "Bearer");
      send(resp, 401, error(null, INVALID_REQUEST, "Unauthorized: missing or invalid credentials."));
      return;
    }
    String version = req.getHeader(VERSION_HEADER);
    boolean unsupported = version != null && !HttpSessions.PROTOCOL_VERSIONS.contains(version.trim())
        && !ProtocolVersions.MODERN.equals(version.trim());
    if (unsupported && !"POST".equals(req.getMethod())) {
      send(resp, 400, unsupportedVersion(null));
      return;
    }
    switch (req.getMethod()) {
      case "POST" -> post(req, resp, headers, unsupported);
      case "GET" -> get(req, resp);
      case "DELETE" -> delete(req, resp);
      default -> {
        resp.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
        send(resp, 405, error(null, INVALID_REQUEST, "Method not allowed: use POST, GET or DELETE."));
      }
    }
  }

  private static byte[] unsupportedVersion(Object id) {
    return error(id, INVALID_REQUEST, "Unsupported MCP-Protocol-Version header; this "
        + "endpoint supports " + String.join(", ", HttpSessions.PROTOCOL_VERSIONS) + ", "
        + ProtocolVersions.MODERN + ".");
  }

  /**
   * @param unsupportedVersion whether the {@code MCP-Protocol-Version} header names a version this
   *     endpoint does not speak: a 2026-07-28-style request (its version in {@code _meta}) is then
   *     answered by that era's UnsupportedProtocolVersionError, which lists the versions it
   *     supports; any other gets 400 with its id
   */
  private void post(HttpServletRequest req, HttpServletResponse resp, Map<String, String> headers,
      boolean unsupportedVersion) throws IOException {
    if (!"application/json".equals(mediaType(req.getContentType()))) {
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
    Inbound inbound = Inbound.flat("http", headers);
    if (unsupportedVersion && !message.isModern()) {
      send(resp, 400, unsupportedVersion(message.id()));
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
    String sessionId = req.getHeader(SESSION_HEADER);
    if (sessionId == null || sessionId.isBlank()) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Bad Request: missing Mcp-Session-Id header; send initialize first."));
      return;
    }
    HttpSessions.Session session = sessions.find(sessionId.trim());
    if (session == null) {
      send(resp, 404, error(id, SESSION_NOT_FOUND, "Session not found: send initialize to start a new session."));
      return;
    }
    if (message.kind() != Message.Kind.REQUEST) {
      edge.dispatch(message, inbound, session.edge, session);
      resp.setStatus(202);
      resp.setContentLength(0);
      return;
    }
    PostStream stream = new PostStream(session, session, resp,
        accept != null && accepts(accept, "text/event-stream"));
    if (edge.repliesEarly() && edge.runsCall(message, inbound)) {
      callAsync(req, resp, session, message, inbound, stream.repliesEarly());
      return;
    }
    HttpSessions.Reply reply = call(session, message, inbound, stream);
    if (reply == null) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Invalid Request: a request with this id is already in progress in this session."));
      return;
    }
    if (!stream.finish(reply.json())) {
      send(resp, 200, reply.json());
    }
  }

  /**
   * Where one POSTed request's messages go. Its reply alone is a plain {@code application/json}
   * body; when the call sends the client something first (progress, a log message, a sampling or
   * elicitation request), the response turns into an event stream ({@code text/event-stream}) on
   * which those messages and then the reply are events — the client reads them in order and may
   * answer a request with another POST while this one is still open. A client whose
   * {@code Accept} does not allow event streams gets those messages on its GET stream instead.
   */
  private static final class PostStream implements Sink {
    private final Sink replies;
    private final HttpSessions.Session session;
    private final HttpServletResponse resp;
    private final boolean streamable;
    private boolean streaming;
    private boolean finished;
    /** Whether the reply left while the request's thread was still held by its handler. */
    private volatile boolean held;
    /** Whether the reply may leave while the handler still holds the request's thread. */
    private boolean early;

    /**
     * @param replies where the reply goes (the servlet writes it once the call is done)
     * @param session where messages go that this response cannot carry; {@code null} for a
     *     stateless request, whose such messages are dropped
     */
    PostStream(Sink replies, HttpSessions.Session session, HttpServletResponse resp,
        boolean streamable) {
      this.replies = replies;
      this.session = session;
      this.resp = resp;
      this.streamable = streamable;
    }

    /** Marks a call whose reply may leave before its handler returns (a deadline's TIMEOUT). */
    PostStream repliesEarly() {
      early = true;
      return this;
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
              resp.setStatus(200);
              resp.setContentType("text/event-stream");
              resp.setCharacterEncoding("UTF-8");
              resp.setHeader("Cache-Control", "no-cache");
              if (early) {
                // Headers leave with the first event, before anyone knows whether a deadline will
                // end the stream while the handler still runs: close the connection after it, as
                // an early body does (see finish), so the client's next request never waits.
                resp.setHeader("Connection", "close");
              }
              streaming = true;
            }
            HttpSessions.EventStream.write(resp.getOutputStream(), json);
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
      HttpSessions.EventStream.write(resp.getOutputStream(), reply);
      if (held) {
        resp.getOutputStream().close();
      }
      return true;
    }
  }

  /**
   * A call whose reply may come before its dispatch returns (a deadline's {@code TIMEOUT}, sent
   * from the timer's thread while the handler still runs on this one): the response is written
   * and completed whenever the reply arrives, asynchronously.
   */
  private void callAsync(HttpServletRequest req, HttpServletResponse resp,
      HttpSessions.Session session, Message request, Inbound inbound, PostStream stream)
      throws IOException {
    Object id = request.id();
    CompletableFuture<HttpSessions.Reply> answer = session.expect(id);
    if (answer == null) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Invalid Request: a request with this id is already in progress in this session."));
      return;
    }
    AsyncContext async = req.startAsync();
    async.setTimeout(0);
    session.openRequests.incrementAndGet();
    answer.orTimeout(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete((reply, failure) -> {
          byte[] body;
          if (failure == null) {
            body = reply.json();
          } else {
            session.forget(id);
            log.warn("Session {}: request {} ({}) did not complete within {}", session.id(), id,
                request.method(), options.requestTimeout());
            body = error(id, INTERNAL_ERROR, "The request did not complete in time.");
          }
          try {
            if (!stream.finish(body)) {
              send(resp, 200, body);
            }
          } catch (IOException | RuntimeException e) {
            log.debug("Session {}: the client went away before reply {}", session.id(), id, e);
          } finally {
            session.openRequests.decrementAndGet();
            session.touch();
            async.complete();
          }
        });
    edge.dispatch(request, inbound, session.edge, stream);
  }

  /**
   * A 2026-07-28 message: stateless, no session. A request is answered by the edge as
   * {@code application/json}, with the HTTP status the SDK's modern transport gives each JSON-RPC
   * error code; a notification gets 202 (stateless HTTP cancels by closing the connection).
   * {@code Mcp-Method}, {@code Mcp-Name} and {@code MCP-Protocol-Version}, when sent, must agree
   * with the body (400 / -32020 otherwise).
   */
  private void modern(HttpServletRequest req, HttpServletResponse resp, Inbound inbound,
      Message message) throws IOException {
    Object id = message.id();
    if (message.kind() == Message.Kind.RESPONSE) {
      send(resp, 400, error(id, INVALID_REQUEST,
          "Invalid Request: the server accepts requests or notifications only."));
      return;
    }
    if (message.kind() == Message.Kind.NOTIFICATION) {
      resp.setStatus(202);
      resp.setContentLength(0);
      return;
    }
    String mismatch = headerMismatch(req, message);
    if (mismatch != null) {
      send(resp, 400, error(id, HEADER_MISMATCH, mismatch));
      return;
    }
    if (edge.repliesEarly() && edge.runsCall(message, inbound)) {
      modernAsync(req, resp, inbound, message);
      return;
    }
    Captured reply = new Captured();
    String accept = req.getHeader("Accept");
    PostStream stream = new PostStream(reply, null, resp, accept != null && accepts(accept, "text/event-stream"));
    // The tool runs on this request thread (no hand-off to another pool).
    edge.dispatch(message, inbound, null, stream);
    if (reply.json != null && stream.finish(reply.json)) {
      return;
    }
    if (reply.json == null) {
      String incident = ErrorReplies.newIncidentId();
      log.error("The edge sent no reply to modern request {} ({}) (incident {})", id, message.method(), incident);
      send(resp, 500, error(id, INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      return;
    }
    send(resp, modernStatus(reply.errorCode), reply.json);
  }

  /** The HTTP status of a 2026-07-28 reply, as the SDK's modern transport gives each JSON-RPC code. */
  private static int modernStatus(int errorCode) {
    return switch (errorCode) {
      case 0 -> 200;
      case PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, HEADER_MISMATCH, -32021, -32022 -> 400;
      case JsonRpc.METHOD_NOT_FOUND -> 404;
      default -> 200;
    };
  }

  /**
   * A stateless call whose reply may come before its dispatch returns (a deadline's
   * {@code TIMEOUT}): the response is written and completed when the one reply arrives.
   */
  private void modernAsync(HttpServletRequest req, HttpServletResponse resp, Inbound inbound,
      Message message) throws IOException {
    AsyncContext async = req.startAsync();
    async.setTimeout(0);
    AtomicBoolean answered = new AtomicBoolean();
    String accept = req.getHeader("Accept");
    PostStream[] stream = new PostStream[1];
    Sink reply = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        if (answered.compareAndSet(false, true)) {
          try {
            if (!stream[0].finish(json)) {
              send(resp, modernStatus(errorCode), json);
            }
          } catch (IOException | RuntimeException e) {
            log.debug("The client went away before reply {}", id, e);
          } finally {
            async.complete();
          }
        }
      }

      @Override
      public void push(byte[] json) {
        log.debug("Dropped a message sent beside a 2026-07-28 reply");
      }
    };
    stream[0] = new PostStream(reply, null, resp, accept != null && accepts(accept, "text/event-stream"))
        .repliesEarly();
    edge.dispatch(message, inbound, null, stream[0]);
    if (answered.compareAndSet(false, true)) {
      String incident = ErrorReplies.newIncidentId();
      log.error("The edge sent no reply to modern request {} ({}) (incident {})", message.id(),
          message.method(), incident);
      try {
        send(resp, 500, error(message.id(), INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      } finally {
        async.complete();
      }
    }
  }

  /** The one reply of a stateless request. */
  private static final class Captured implements Sink {
    volatile int errorCode;
    volatile byte[] json;

    @Override
    public void reply(Object id, int errorCode, byte[] json) {
      this.errorCode = errorCode;
      this.json = json;
    }

    @Override
    public void push(byte[] json) {
      // Reached only when the response cannot stream (the client accepts no event stream) or has
      // ended: a stateless request has no other stream to put it on.
      log.debug("Dropped a message sent beside a 2026-07-28 reply");
    }
  }

  /** Why the MCP headers disagree with the body, or {@code null} when they agree (or are absent). */
  private static String headerMismatch(HttpServletRequest req, Message message) {
    String methodHeader = req.getHeader("Mcp-Method");
    if (methodHeader != null && !methodHeader.trim().equals(message.method())) {
      return "Mcp-Method header does not match the request method.";
    }
    Map<?, ?> params = message.params();
    Object metaVersion = params != null && params.get("_meta") instanceof Map<?, ?> m
        ? m.get(Meta.PROTOCOL_VERSION) : null;
    String version = req.getHeader(VERSION_HEADER);
    if (version != null && metaVersion != null && !version.trim().equals(metaVersion)) {
      return "MCP-Protocol-Version header does not match the protocol version in _meta.";
    }
    String nameHeader = req.getHeader("Mcp-Name");
    if (nameHeader != null && params != null
        && ("tools/call".equals(message.method()) || "prompts/get".equals(message.method()))
        && params.get("name") instanceof String name && !nameHeader.trim().equals(name)) {
      return "Mcp-Name header does not match the request name.";
    }
    return null;
  }

  private void initialize(Message request, Inbound inbound, HttpServletResponse resp)
      throws IOException {
    HttpSessions.Session session = sessions.newSession();
    if (session == null) {
      resp.setHeader("Retry-After", String.valueOf(SESSIONS_RETRY_AFTER_SECONDS));
      send(resp, 503, error(request.id(), INTERNAL_ERROR, "Service Unavailable: this server has "
          + options.maxSessions() + " open sessions, the most it allows; retry after "
          + SESSIONS_RETRY_AFTER_SECONDS + " seconds, or end an unused session with DELETE."));
      return;
    }
    HttpSessions.Reply reply = call(session, request, inbound);
    if (reply == null || reply.errorCode() != 0) {
      session.close();
      send(resp, 200, reply == null ? error(request.id(), INTERNAL_ERROR, "Internal error.") : reply.json());
      return;
    }
    sessions.register(session);
    resp.setHeader(SESSION_HEADER, session.id());
    send(resp, 200, reply.json());
  }

  /** Hands a request to the edge and waits for its reply; {@code null} if its id is already waiting. */
  private HttpSessions.Reply call(HttpSessions.Session session, Message request, Inbound inbound) {
    return call(session, request, inbound, session);
  }

  /** As above, with the call's messages before its reply going to {@code out}. */
  private HttpSessions.Reply call(HttpSessions.Session session, Message request, Inbound inbound,
      Sink out) {
    CompletableFuture<HttpSessions.Reply> answer = session.expect(request.id());
    if (answer == null) {
      return null;
    }
    session.openRequests.incrementAndGet();
    try {
      edge.dispatch(request, inbound, session.edge, out);
      return answer.get(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      session.forget(request.id());
      log.warn("Session {}: request {} ({}) did not complete within {}", session.id(), request.id(),
          request.method(), options.requestTimeout());
      return new HttpSessions.Reply(INTERNAL_ERROR,
          error(request.id(), INTERNAL_ERROR, "The request did not complete in time."));
    } catch (ExecutionException e) {
      session.forget(request.id());
      String incident = ErrorReplies.newIncidentId();
      log.error("Session {}: request {} ({}) failed (incident {})", session.id(), request.id(),
          request.method(), incident, e);
      return new HttpSessions.Reply(INTERNAL_ERROR,
          error(request.id(), INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      session.forget(request.id());
      return new HttpSessions.Reply(INTERNAL_ERROR,
          error(request.id(), INTERNAL_ERROR, "The server is shutting down."));
    } finally {
      session.openRequests.decrementAndGet();
      session.touch();
    }
  }

  private void get(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String accept = req.getHeader("Accept");
    if (accept == null || !accepts(accept, "text/event-stream")) {
      send(resp, 406, error(null, INVALID_REQUEST, "Not Acceptable: the event stream needs Accept: text/event-stream."));
      return;
    }
    HttpSessions.Session session = session(req, resp);
    if (session == null) {
      return;
    }
    AsyncContext async = req.startAsync();
    async.setTimeout(0);
    resp.setStatus(200);
    resp.setContentType("text/event-stream");
    resp.setCharacterEncoding("UTF-8");
    resp.setHeader("Cache-Control", "no-cache");
    resp.setHeader(SESSION_HEADER, session.id());
    // The measured SDK transport never sent these headers; a client waits for them, so flush now.
    resp.flushBuffer();
    session.openStream(async, resp.getOutputStream());
  }

  private void delete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    HttpSessions.Session session = session(req, resp);
    if (session == null) {
      return;
    }
    sessions.remove(session);
    resp.setStatus(204);
  }

  private HttpSessions.Session session(HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    String sessionId = req.getHeader(SESSION_HEADER);
    if (sessionId == null || sessionId.isBlank()) {
      send(resp, 400, error(null, INVALID_REQUEST, "Bad Request: missing Mcp-Session-Id header."));
      return null;
    }
    HttpSessions.Session session = sessions.find(sessionId.trim());
    if (session == null) {
      send(resp, 404, error(null, SESSION_NOT_FOUND, "Session not found: send initialize to start a new session."));
    }
    return session;
  }

  /**
   * The message in the body, read once by the edge; or {@code null} after answering 413 when the
   * body is larger than the cap (with the message's id when a scan of its first bytes finds it).
   */
  private Message readCapped(HttpServletRequest req, HttpServletResponse resp) throws IOException {
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

  private boolean authenticated(HttpAuthenticator auth, Map<String, String> headers) {
    try {
      return auth.authenticate(headers);
    } catch (RuntimeException e) {
      log.warn("The auth hook failed; rejecting the request", e);
      return false;
    }
  }

  private boolean hostAllowed(HttpServletRequest req) {
    String host = req.getHeader("Host");
    if (host == null || host.isBlank()) {
      return false;
    }
    List<String> allowed = options.allowedHosts();
    if (allowed.contains("*")) {
      return true;
    }
    host = host.trim().toLowerCase(Locale.ROOT);
    String name;
    String portText;
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      if (end < 0) {
        return false;
      }
      name = host.substring(0, end + 1);
      portText = host.substring(end + 1);
    } else {
      int colon = host.lastIndexOf(':');
      name = colon < 0 ? host : host.substring(0, colon);
      portText = colon < 0 ? "" : host.substring(colon);
    }
    int port;
    if (portText.isEmpty()) {
      port = req.isSecure() ? 443 : 80;
    } else if (PORT.matcher(portText).matches()) {
      port = Integer.parseInt(portText.substring(1));
    } else {
      return false;
    }
    if (LOOPBACK.contains(name) && port == req.getLocalPort()) {
      return true;
    }
    return allowed.contains(name) || allowed.contains(name + ":" + port);
  }

  private boolean originAllowed(String origin, HttpServletRequest req) {
    String o = origin.trim().toLowerCase(Locale.ROOT);
    if (o.endsWith("/")) {
      o = o.substring(0, o.length() - 1);
    }
    List<String> allowed = options.allowedOrigins();
    if (allowed.contains("*") || allowed.contains(o)) {
      return true;
    }
    int port = req.getLocalPort();
    for (String name : LOOPBACK) {
      if (o.equals("http://" + name + ":" + port) || port == 80 && o.equals("http://" + name)) {
        return true;
      }
    }
    return false;
  }

  /** The request headers, flattened by the edge's one rule ({@link Inbound#addHeader}). */
  private static Map<String, String> headers(HttpServletRequest req) {
    Map<String, String> headers = new LinkedHashMap<>(32);
    java.util.Enumeration<String> names = req.getHeaderNames();
    while (names.hasMoreElements()) {
      String name = names.nextElement();
      java.util.Enumeration<String> values = req.getHeaders(name);
      while (values.hasMoreElements()) {
        Inbound.addHeader(headers, name, values.nextElement());
      }
    }
    return headers;
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return null;
    }
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  private static boolean accepts(String accept, String type) {
    String family = type.substring(0, type.indexOf('/')) + "/*";
    for (String part : accept.split(",")) {
      String media = mediaType(part);
      if (media.equals(type) || media.equals(family) || media.equals("*/*")) {
        return true;
      }
    }
    return false;
  }

  private static byte[] error(Object id, int code, String message) {
    return Bodies.error(id, code, message);
  }

  private static void send(HttpServletResponse resp, int status, byte[] body) throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }

  /**
   * Stops taking requests (new ones get 503), ends the event streams, lets requests in progress
   * finish within {@code grace}, then closes the SDK server and its sessions. Idempotent.
   */
  void shutdown(Duration grace) {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    draining = true;
    sessions.closeStreams();
    long deadline = System.nanoTime() + grace.toNanos();
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (inFlight.get() > 0) {
      log.warn("{} request(s) still in progress after the {} shutdown grace", inFlight.get(), grace);
    }
    sessions.closeAll();
    edge.close();
  }

  /** The sessions (server-initiated messages go through them). */
  HttpSessions sessions() {
    return sessions;
  }

  /** Requests being served now (event streams excluded once they are open). */
  int inFlight() {
    return inFlight.get();
  }

  /** Stops the endpoint: drains calls in flight within {@link HttpOptions#shutdownGrace()}, then closes the sessions. */
  @Override
  public void destroy() {
    shutdown(options.shutdownGrace());
  }
}
