package dev.mcpfusion.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Options of the Streamable HTTP endpoint; immutable, every setter returns a copy.
 *
 * <pre>{@code
 * HttpOptions.port(8080)                       // 127.0.0.1:8080, endpoint /mcp
 *     .allowedOrigins("https://app.example")   // loopback origins are always allowed
 *     .auth(HttpAuthenticator.bearer(token))
 *     .shutdownGrace(Duration.ofSeconds(20));
 * }</pre>
 *
 * <p>Secure by default: bound to {@code 127.0.0.1}; a request whose {@code Host} is not
 * {@code localhost}, {@code 127.0.0.1} or {@code [::1]} at the server's port, or whose
 * {@code Origin} is not {@code http://} one of those, is refused (DNS-rebinding protection) unless
 * listed in {@link #allowedHosts(String...)} / {@link #allowedOrigins(String...)}.
 */
public final class HttpOptions {
  /** The default cap on open sessions. */
  public static final int DEFAULT_MAX_SESSIONS = 1000;

  /** The default request body cap: 4 MiB. */
  public static final long DEFAULT_MAX_BODY_BYTES = 4L * 1024 * 1024;

  /**
   * The default interval of the event-stream heartbeat: 15 seconds, well inside the idle limits
   * of common proxies and load balancers (30–60 s).
   */
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(15);

  /**
   * The default cap on a request's headers (request line included) without {@link #auth}: 8 KiB,
   * Jetty's own default; larger headers get a clean {@code 431}.
   */
  public static final int DEFAULT_MAX_HEADER_BYTES = 8 * 1024;

  /**
   * The default cap on a request's headers when an {@link #auth authenticator} is set: 80 KiB,
   * room for a 64 KiB {@code Authorization} header and the rest. An oversized or forged token then
   * reaches the authenticator and is refused with its {@code 401} and challenge (pointing to the
   * metadata, so a client can get a good token) rather than a bare {@code 431} from the server.
   */
  public static final int DEFAULT_MAX_HEADER_BYTES_WITH_AUTH = 80 * 1024;

  private final String bindAddress;
  private final int port;
  private final String path;
  private final List<String> allowedOrigins;
  private final List<String> allowedHosts;
  private final long maxBodyBytes;
  private final Duration shutdownGrace;
  private final Duration requestTimeout;
  private final HttpAuthenticator auth;
  private final boolean stopOnShutdownSignal;
  private final Duration sessionIdleTimeout;
  private final int maxSessions;
  private final Duration heartbeatInterval;
  private final EventStore eventStore;
  private final SessionStore sessionStore;
  private final List<PublicDocument> documents;
  /** Set by {@link #maxHeaderBytes(int)}; {@code 0}: the default for whether auth is on. */
  private final int maxHeaderBytes;
  private final boolean answerOnIoThread;

  private HttpOptions(String bindAddress, int port, String path, List<String> allowedOrigins,
      List<String> allowedHosts, long maxBodyBytes, Duration shutdownGrace, Duration requestTimeout,
      HttpAuthenticator auth, boolean stopOnShutdownSignal, Duration sessionIdleTimeout,
      int maxSessions, Duration heartbeatInterval, EventStore eventStore, SessionStore sessionStore,
      List<PublicDocument> documents, int maxHeaderBytes, boolean answerOnIoThread) {
    this.bindAddress = bindAddress;
    this.port = port;
    this.path = path;
    this.allowedOrigins = List.copyOf(allowedOrigins);
    this.allowedHosts = List.copyOf(allowedHosts);
    this.maxBodyBytes = maxBodyBytes;
    this.shutdownGrace = shutdownGrace;
    this.requestTimeout = requestTimeout;
    this.auth = auth;
    this.stopOnShutdownSignal = stopOnShutdownSignal;
    this.sessionIdleTimeout = sessionIdleTimeout;
    this.maxSessions = maxSessions;
    this.heartbeatInterval = heartbeatInterval;
    this.eventStore = eventStore;
    this.sessionStore = sessionStore;
    this.documents = List.copyOf(documents);
    this.maxHeaderBytes = maxHeaderBytes;
    this.answerOnIoThread = answerOnIoThread;
  }

  /** The defaults: {@code 127.0.0.1:8080}, path {@code /mcp}, 4 MiB bodies, 30 s shutdown grace. */
  public static HttpOptions defaults() {
    return new HttpOptions("127.0.0.1", 8080, "/mcp", List.of(), List.of(), DEFAULT_MAX_BODY_BYTES,
        Duration.ofSeconds(30), Duration.ofMinutes(5), null, true, Duration.ofMinutes(30),
        DEFAULT_MAX_SESSIONS, DEFAULT_HEARTBEAT_INTERVAL, null, SessionStore.none(), List.of(), 0, false);
  }

  /** The defaults on another port; {@code 0} picks a free one (read it from {@link FusionHttpServer#port()}). */
  public static HttpOptions port(int port) {
    return defaults().withPort(port);
  }

  /** A copy on another port ({@code 0} = ephemeral). */
  public HttpOptions withPort(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** A copy bound to another address (e.g. {@code 0.0.0.0}; then list the public host names in {@link #allowedHosts}). */
  public HttpOptions bindAddress(String address) {
    Objects.requireNonNull(address, "address");
    return new HttpOptions(address, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** A copy serving the endpoint at another path (default {@code /mcp}). */
  public HttpOptions path(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.contains("*")) {
      throw new IllegalArgumentException("path must start with '/' and contain no '*', got '" + path + "'");
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy that also accepts these {@code Origin} values (e.g. {@code https://app.example}, compared
   * case-insensitively, scheme and port included); {@code "*"} accepts any. Loopback origins at
   * the server's port are always accepted; a request without {@code Origin} is accepted.
   */
  public HttpOptions allowedOrigins(String... origins) {
    List<String> all = new ArrayList<>(allowedOrigins);
    for (String origin : origins) {
      all.add(normalize(Objects.requireNonNull(origin, "origin")));
    }
    return new HttpOptions(bindAddress, port, path, all, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy that also accepts these {@code Host} values: {@code name} (any port), {@code name:port},
   * {@code [v6]:port}, or {@code "*"} for any. {@code localhost}, {@code 127.0.0.1} and
   * {@code [::1]} at the server's port are always accepted.
   */
  public HttpOptions allowedHosts(String... hosts) {
    List<String> all = new ArrayList<>(allowedHosts);
    for (String host : hosts) {
      all.add(normalize(Objects.requireNonNull(host, "host")));
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, all, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** A copy with another request body cap in bytes; larger bodies get {@code 413}. */
  public HttpOptions maxBodyBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxBodyBytes must be positive, got " + bytes);
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, bytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** A copy with another bound on how long {@code close()} lets calls in flight finish. */
  public HttpOptions shutdownGrace(Duration grace) {
    Objects.requireNonNull(grace, "grace");
    if (grace.isNegative()) {
      throw new IllegalArgumentException("shutdownGrace must not be negative");
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        grace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy with another bound on how long one request waits for its answer (default 5 minutes).
   * A 2025-era request waits on its session for at most this long. A stateless (2026-07-28)
   * request runs its tool on the request thread itself, as the SDK's own servlet does, so this
   * bound cannot cut a tool short there; a per-call deadline in the pipeline is not built yet.
   */
  public HttpOptions requestTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive");
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, timeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** A copy with an authentication hook; {@code null} removes it. */
  public HttpOptions auth(HttpAuthenticator authenticator) {
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, authenticator, stopOnShutdownSignal, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy that does (default) or does not register a JVM shutdown hook, so SIGTERM closes the
   * server gracefully (calls in flight finish within {@link #shutdownGrace()}).
   */
  public HttpOptions stopOnShutdownSignal(boolean stop) {
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stop, sessionIdleTimeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy with another idle limit for sessions (default 30 minutes): a session unused for longer
   * is closed (its id then gets 404, and the client starts a new one).
   */
  public HttpOptions sessionIdleTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("sessionIdleTimeout must be positive");
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, timeout, maxSessions, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy with another cap on open Streamable HTTP sessions (default
   * {@value #DEFAULT_MAX_SESSIONS}): an {@code initialize} beyond it gets 503 with
   * {@code Retry-After} until a session ends or goes idle. Stateless 2026-07-28 requests hold no
   * session and are not counted.
   */
  public HttpOptions maxSessions(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("maxSessions must be at least 1, got " + max);
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, max, heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy with another heartbeat interval for GET event streams (default 15 seconds): an SSE
   * comment line ({@code : ping}), which clients ignore, is written to every open stream at this
   * interval. It keeps proxies from closing a quiet stream, and it finds a client that went away
   * without {@code DELETE}: the write fails, the stream is released (its connection closed), and
   * the session, unused from then on, is closed after {@link #sessionIdleTimeout} and frees its
   * place under {@link #maxSessions}. Idle sessions are swept at the same interval.
   */
  public HttpOptions heartbeatInterval(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("heartbeatInterval must be positive");
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions,
        interval, eventStore, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy that keeps the events of every session's streams in {@code store} (for a client that
   * resumes a broken stream with {@code Last-Event-ID}); {@code null} restores the default, a
   * fresh {@link EventStore#inMemory()} for each endpoint with the default limits. Use
   * {@code EventStore.inMemory(limits)} for other limits, or your own store to keep the events
   * elsewhere.
   */
  public HttpOptions eventStore(EventStore store) {
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions,
        heartbeatInterval, store, sessionStore, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** The event store set with {@link #eventStore(EventStore)}, or {@code null}: each endpoint makes its own in-memory one. */
  public EventStore eventStore() {
    return eventStore;
  }

  /**
   * A copy that keeps the 2025-era sessions in {@code store} as well as in this process, so every
   * instance sharing the store serves a session any of them initialised; {@code null} restores
   * the default, {@link SessionStore#none()} (sessions live in this process only).
   */
  public HttpOptions sessionStore(SessionStore store) {
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions,
        heartbeatInterval, eventStore, store == null ? SessionStore.none() : store, documents, maxHeaderBytes, answerOnIoThread);
  }

  /** The session store set with {@link #sessionStore(SessionStore)}; {@link SessionStore#none()} by default. */
  public SessionStore sessionStore() {
    return sessionStore;
  }

  /** How often an open GET event stream gets a heartbeat comment. */
  public Duration heartbeatInterval() {
    return heartbeatInterval;
  }

  /** The most Streamable HTTP sessions open at once. */
  public int maxSessions() {
    return maxSessions;
  }

  /** How long a session may stay unused before it is closed. */
  public Duration sessionIdleTimeout() {
    return sessionIdleTimeout;
  }

  /** The address the server binds. */
  public String bindAddress() {
    return bindAddress;
  }

  /** The port to bind ({@code 0} = ephemeral). */
  public int port() {
    return port;
  }

  /** The endpoint path. */
  public String path() {
    return path;
  }

  /** The extra accepted origins (normalized to lower case). */
  public List<String> allowedOrigins() {
    return allowedOrigins;
  }

  /** The extra accepted hosts (normalized to lower case). */
  public List<String> allowedHosts() {
    return allowedHosts;
  }

  /** The request body cap in bytes. */
  public long maxBodyBytes() {
    return maxBodyBytes;
  }

  /** How long {@code close()} lets calls in flight finish. */
  public Duration shutdownGrace() {
    return shutdownGrace;
  }

  /** How long one request waits for its answer. */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** The authentication hook, or {@code null}. */
  public HttpAuthenticator auth() {
    return auth;
  }

  /** Whether {@link FusionHttp#serve} registers a JVM shutdown hook. */
  public boolean stopOnShutdownSignal() {
    return stopOnShutdownSignal;
  }

  private static String normalize(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    return v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
  }

  /**
   * A copy that also serves these public documents (the cards of {@code fusion-cards}, or any
   * static JSON) each at its own path, replacing those published before; none by default. They
   * are read without authentication, after the Host check, with CORS open to every origin, cache
   * headers and an {@code ETag}. Only {@link FusionHttp#serve} serves them.
   */
  public HttpOptions publish(PublicDocument... documents) {
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions,
        heartbeatInterval, eventStore, sessionStore, List.of(documents), maxHeaderBytes, answerOnIoThread);
  }

  /**
   * A copy with another cap in bytes on a request's headers, request line included (default
   * {@value #DEFAULT_MAX_HEADER_BYTES}, or {@value #DEFAULT_MAX_HEADER_BYTES_WITH_AUTH} when an
   * authenticator is set); larger headers get a clean {@code 431} before any check runs.
   *
   * <p>The cap is a ceiling, not an allocation: Jetty reads each connection through a small pooled
   * input buffer (8 KiB) and parses headers as they arrive, so a connection holds heap for its
   * headers only as large as the headers it was sent, for as long as its request lasts. What the
   * cap bounds is the worst case: {@code n} connections sending headers of the full size hold
   * about {@code n} times the cap (1,000 connections at 80 KiB: about 80 MiB). Only
   * {@link FusionHttp#serve} applies it; another container has its own limit (Spring Boot:
   * {@code server.max-http-request-header-size}).
   *
   * @throws IllegalArgumentException when {@code bytes} is below 1024 (ordinary requests would not fit)
   */
  public HttpOptions maxHeaderBytes(int bytes) {
    if (bytes < 1024) {
      throw new IllegalArgumentException("maxHeaderBytes must be at least 1024, got " + bytes);
    }
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions,
        heartbeatInterval, eventStore, sessionStore, documents, bytes, answerOnIoThread);
  }

  /**
   * The cap on a request's headers: the one set with {@link #maxHeaderBytes(int)}, else
   * {@value #DEFAULT_MAX_HEADER_BYTES_WITH_AUTH} with an authenticator and
   * {@value #DEFAULT_MAX_HEADER_BYTES} without.
   */
  public int maxHeaderBytes() {
    if (maxHeaderBytes > 0) {
      return maxHeaderBytes;
    }
    return auth == null ? DEFAULT_MAX_HEADER_BYTES : DEFAULT_MAX_HEADER_BYTES_WITH_AUTH;
  }

  /** The documents set with {@link #publish(PublicDocument...)}, in order; empty by default. */
  public List<PublicDocument> documents() {
    return documents;
  }

  /**
   * A copy that answers on the thread that read it each POST that never waits, instead of handing
   * it to a pool thread (off by default). Such a POST is one with a known body within
   * {@link #maxBodyBytes()} carrying a notification, a client's response, a request that runs no
   * user code (the handshake, lists, {@code ping}), or a {@code tools/call} of an action that
   * answers with a {@code CompletionStage} or is declared {@code @NonBlocking}, with no
   * {@code @Limits} or {@code @SerializeOn} queue. Everything else — a blocking handler, prompts,
   * resources, GET and DELETE, a call that may become a task — goes to the pool as before. The
   * body is read without waiting and the reply is written without waiting, so a slow or stalled
   * client holds no thread; a reply waiting for such a client stays in memory until it is written
   * or its connection closes.
   *
   * <p>Only where nothing else can wait either: it applies when no {@link #auth authenticator} is
   * set and the session and event stores keep everything in this process ({@link #sessionStore}
   * none, the in-memory {@link #eventStore}); otherwise every request goes to the pool. Only
   * {@link FusionHttp#serve} applies it. It saves the hand-off between threads a request otherwise
   * costs (about a third of the sample's server CPU per call at 16 clients: BENCHMARKS.md Run K);
   * the price is that a handler so declared that does block stalls every connection its thread
   * serves.
   */
  public HttpOptions answerOnIoThread(boolean answer) {
    return new HttpOptions(bindAddress, port, path, allowedOrigins, allowedHosts, maxBodyBytes,
        shutdownGrace, requestTimeout, auth, stopOnShutdownSignal, sessionIdleTimeout, maxSessions,
        heartbeatInterval, eventStore, sessionStore, documents, maxHeaderBytes, answer);
  }

  /**
   * Whether the requests that never wait are answered on the thread that read them
   * ({@link #answerOnIoThread(boolean)}).
   */
  public boolean answerOnIoThread() {
    return answerOnIoThread;
  }
}
