package dev.mcpfusion.http;

import static dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR;
import static dev.mcpfusion.wire.JsonRpc.INVALID_REQUEST;
import static dev.mcpfusion.http.HttpFraming.SESSION_HEADER;
import static dev.mcpfusion.http.HttpFraming.VERSION_HEADER;
import static dev.mcpfusion.http.HttpFraming.error;
import static dev.mcpfusion.http.HttpFraming.send;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.error.ErrorReplies;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
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
 *
 * <p>This class holds what every request passes through (shutdown, the shared checks of
 * {@code RequestChecks}, CORS preflight) and hands each method to its own class:
 * {@code PostRequests}, {@code GetEventStream}, {@code DeleteSession}.
 */
public final class McpHttpServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(McpHttpServlet.class);
  /** The {@code Retry-After} of an {@code initialize} turned away because every session is taken. */
  static final int SESSIONS_RETRY_AFTER_SECONDS = 5;
  /**
   * The {@code Retry-After} of a request turned away while the server drains: short, because
   * another instance behind the same load balancer can answer it at once.
   */
  static final int DRAIN_RETRY_AFTER_SECONDS = 1;
  static final String DRAINING_MESSAGE = "Service Unavailable: this server is shutting down; retry after "
      + DRAIN_RETRY_AFTER_SECONDS + " second (another instance may answer).";
  /** How long, after the grace, the calls cut by the drain get to write their clean error. */
  private static final Duration CUT_WRITE_BOUND = Duration.ofSeconds(2);

  private final transient HttpOptions options;
  private final transient Edge edge;
  private final transient HttpSessions sessions;
  private final transient RequestChecks checks;
  private final transient PostRequests posts;
  private final transient GetEventStream gets;
  private final transient DeleteSession deletes;
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
        options.heartbeatInterval(),
        options.eventStore() == null ? EventStore.inMemory() : options.eventStore(),
        options.sessionStore());
    this.checks = new RequestChecks(options, sessions);
    this.posts = new PostRequests(options, edge, sessions, checks);
    this.gets = new GetEventStream(checks);
    this.deletes = new DeleteSession(checks, sessions);
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
      resp.setHeader("Retry-After", String.valueOf(DRAIN_RETRY_AFTER_SECONDS));
      send(resp, 503, error(null, INTERNAL_ERROR, DRAINING_MESSAGE));
      return;
    }
    if (!checks.hostAllowed(req)) {
      send(resp, 403, error(null, INVALID_REQUEST, "Forbidden: this Host is not allowed."));
      return;
    }
    String origin = req.getHeader("Origin");
    if (origin != null) {
      if (!checks.originAllowed(origin, req)) {
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
          "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method,"
              + " Mcp-Name, Last-Event-ID");
      resp.setHeader("Access-Control-Max-Age", "600");
      resp.setStatus(204);
      return;
    }
    Map<String, String> headers = RequestChecks.headers(req);
    Authentication auth = checks.authentication(headers);
    if (!auth.isAccepted()) {
      // Read (and drop) a body up to the size the endpoint accepts: a server that answers while
      // the body is still arriving and then closes can reset the connection under the client's
      // upload, and the client would see no answer at all. A larger body gets the answer and a close.
      if (!RequestChecks.drain(req, options.maxBodyBytes())) {
        resp.setHeader("Connection", "close");
      }
      if (auth.isUnavailable()) {
        resp.setHeader("Retry-After", Long.toString(auth.retryAfterSeconds()));
        send(resp, 503, error(null, INTERNAL_ERROR, "Service Unavailable: the access token cannot be"
            + " checked now (its issuer does not answer); retry in " + auth.retryAfterSeconds()
            + " s with the same token."));
        return;
      }
      resp.setHeader("WWW-Authenticate", Challenges.unauthorized(options.auth(), auth.invalidToken()));
      send(resp, 401, error(null, INVALID_REQUEST, auth.invalidToken()
          ? "Unauthorized: the access token is not valid for this server; get a new one."
          : "Unauthorized: send an access token (Authorization: Bearer …)."));
      return;
    }
    req.setAttribute(Challenges.CALLER_ATTRIBUTE, auth.caller());
    boolean unsupported = RequestChecks.unsupportedVersion(req.getHeader(VERSION_HEADER));
    if (unsupported && !"POST".equals(req.getMethod())) {
      send(resp, 400, RequestChecks.unsupportedVersionBody(null));
      return;
    }
    switch (req.getMethod()) {
      case "POST" -> posts.post(req, resp, headers, unsupported);
      case "GET" -> gets.get(req, resp);
      case "DELETE" -> deletes.delete(req, resp);
      default -> {
        resp.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
        send(resp, 405, error(null, INVALID_REQUEST, "Method not allowed: use POST, GET or DELETE."));
      }
    }
  }

  /**
   * Stops taking requests (the readiness probe and every new request answer 503 with
   * {@code Retry-After}), ends the event streams (listen streams with their result), lets requests in progress finish within
   * {@code grace}, answers each request still waiting after it with a clean error carrying its id
   * (the drain cut it; it may be retried), then closes the SDK server and its sessions. Idempotent.
   */
  void shutdown(Duration grace) {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    draining = true;
    sessions.closeStreams();
    edge.listenStreams().close();
    awaitInFlight(grace);
    if (inFlight.get() > 0) {
      int cut = posts.cutOpenCalls();
      log.warn("{} request(s) still in progress after the {} shutdown grace; {} answered as cut",
          inFlight.get(), grace, cut);
      awaitInFlight(CUT_WRITE_BOUND);
    }
    posts.stop();
    sessions.closeAll();
    edge.close();
  }

  private void awaitInFlight(Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Whether a graceful stop has begun (new requests are refused; the readiness probe says so). */
  boolean isDraining() {
    return draining;
  }

  /** The sessions (server-initiated messages go through them). */
  HttpSessions sessions() {
    return sessions;
  }

  /** The endpoint's path. */
  String path() {
    return options.path();
  }

  /** The POST side of the endpoint. */
  PostRequests posts() {
    return posts;
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
