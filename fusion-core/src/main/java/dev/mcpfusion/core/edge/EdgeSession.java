package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.surface.SessionStates;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client connection as the edge sees it (a stdio stream, an HTTP {@code Mcp-Session-Id}, a
 * tester): its place in the lifecycle, the negotiated protocol version, the calls and listen
 * streams in flight (so a {@code notifications/cancelled} can stop one), the client's capabilities
 * and log level, and the requests the server sent the client.
 *
 * <p>Thread-safe. Opened with {@link Edge#openSession}.
 */
public final class EdgeSession implements AutoCloseable {
  static final int NEW = 0;
  static final int INITIALIZING = 1;
  static final int READY = 2;

  private final String id;
  private final Sink out;
  private final AtomicInteger state = new AtomicInteger(NEW);
  private final AtomicInteger open = new AtomicInteger();
  private final Map<Object, Call> inFlight = new ConcurrentHashMap<>();
  /**
   * Requests answered by a stream on this connection's own channel (a 2026-07-28 listen over
   * stdio), by id: what ends each when the client cancels it or the session closes.
   */
  private final Map<Object, Runnable> streams = new ConcurrentHashMap<>();
  private volatile String protocolVersion;
  private volatile Object initializeId;
  private volatile boolean closed;
  /** The client's {@code capabilities} from {@code initialize} (a plain JSON tree). */
  private volatile Map<?, ?> clientCapabilities = Map.of();
  /** The client's {@code clientInfo} from {@code initialize} (a plain JSON tree), or {@code null}. */
  private volatile Map<?, ?> clientInfo;
  /**
   * The least severe level the client wants logged; INFO until it sends {@code logging/setLevel}
   * (the protocol lets the server choose, and debug chatter is not worth a client's context).
   */
  private volatile LogLevel logLevel = LogLevel.INFO;
  /** Requests the server sent the client, waiting for the client's response, by id. */
  private final Map<Object, CompletableFuture<Map<String, Object>>> asked = new ConcurrentHashMap<>();
  private final AtomicLong askIds = new AtomicLong();
  /** What the ids of the requests to the client start with ({@link #asksAs}). */
  private volatile String askPrefix = ASK_PREFIX;
  private static final String ASK_PREFIX = "fusion-";
  private static final java.util.regex.Pattern ASKED = java.util.regex.Pattern.compile(
      "fusion-([A-Za-z0-9]{1,64})-[0-9]{1,19}");

  /** Requests whose span ends with their reply, by id ({@link MessageTraces}). */
  private final Map<Object, RequestTrace> watched = new ConcurrentHashMap<>();
  private final FusionMeter meter;
  /** When the session opened, for {@code mcp.server.session.duration}; 0 when nothing meters. */
  private final long openedNanos;
  private volatile String transport;
  /** The session's workflow state of each router with {@code @States}. */
  private final SessionStates workflow = new SessionStates();

  EdgeSession(Sink out) {
    this(out, FusionMeter.NOOP);
  }

  EdgeSession(Sink out, FusionMeter meter) {
    this(out, meter, UUID.randomUUID().toString());
  }

  EdgeSession(Sink out, FusionMeter meter, String id) {
    this.id = id;
    this.out = out;
    this.meter = meter;
    this.openedNanos = meter == FusionMeter.NOOP ? 0 : System.nanoTime();
  }

  /** The session id ({@code Mcp-Session-Id} on HTTP); reaches {@code RequestContext.sessionId()}. */
  public String id() {
    return id;
  }

  /** Whether {@code initialize} has been answered (or at least received) on this session. */
  public boolean initializeReceived() {
    return state.get() != NEW;
  }

  /** The protocol version negotiated by {@code initialize}, or {@code null} before it. */
  public String protocolVersion() {
    return protocolVersion;
  }

  /** Requests of this session being answered now. */
  public int openRequests() {
    return open.get();
  }

  /**
   * Waits until no request of this session is being answered, at most {@code timeout}.
   *
   * @return whether the session went idle in time
   */
  public boolean awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (open.get() > 0) {
      if (System.nanoTime() >= deadline) {
        return false;
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return open.get() == 0;
      }
    }
    return true;
  }

  /**
   * Sends a notification the server starts itself ({@code method} with {@code params}, a plain
   * JSON tree or {@code null}) to this session's client.
   */
  public void notify(String method, Map<String, Object> params) {
    out.push(Bodies.notification(method, params));
  }

  /**
   * Closes the session: requests it sent the client fail, unanswered spans end. Calls in flight
   * still reply. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Object key : List.copyOf(streams.keySet())) {
      Runnable end = streams.remove(key);
      if (end != null) {
        end.run(); // the client is gone: its streams end without a reply
      }
    }
    for (RequestTrace trace : watched.values()) {
      trace.end(); // never answered: the span ends without a status OK
    }
    watched.clear();
    if (meter != FusionMeter.NOOP) {
      try {
        meter.session(transport, protocolVersion, (System.nanoTime() - openedNanos) / 1_000_000_000.0);
      } catch (RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(EdgeSession.class)
            .warn("meter failed to record a session; the session closes anyway", e);
      }
    }
    for (CompletableFuture<Map<String, Object>> waiting : asked.values()) {
      waiting.completeExceptionally(new IllegalStateException("the session closed"));
    }
  }

  boolean isClosed() {
    return closed;
  }

  /** The session's workflow states. */
  SessionStates workflow() {
    return workflow;
  }

  /** Where this session's replies and server messages go. */
  public Sink out() {
    return out;
  }

  int state() {
    return state.get();
  }

  /** NEW → INITIALIZING, remembering which request to read the negotiated version from. */
  void initializing(Object requestId) {
    initializeId = requestId;
    state.compareAndSet(NEW, INITIALIZING);
  }

  /** Moves to READY; true when this call made the move. */
  boolean ready() {
    return state.getAndSet(READY) != READY;
  }

  /** Records the version negotiated by the answer to the {@code initialize} request {@code responseId}. */
  void answered(Object responseId, Object negotiatedVersion) {
    Object expected = initializeId;
    if (expected != null && Edge.idKey(expected).equals(Edge.idKey(responseId))
        && negotiatedVersion instanceof String v) {
      protocolVersion = v;
    }
  }

  /** Keeps the client's {@code capabilities} and {@code clientInfo} from initialize's params. */
  void client(Map<?, ?> params) {
    if (params != null && params.get("capabilities") instanceof Map<?, ?> map) {
      clientCapabilities = map;
    }
    if (params != null && params.get("clientInfo") instanceof Map<?, ?> map) {
      clientInfo = map;
    }
  }

  Map<?, ?> clientCapabilities() {
    return clientCapabilities;
  }

  Map<?, ?> clientInfo() {
    return clientInfo;
  }

  /**
   * Takes the state another process saved ({@link Edge#resumeSession}): the session is ready, with
   * the capabilities, client and log level its {@code initialize} and {@code logging/setLevel} set.
   */
  void resume(String version, Map<?, ?> capabilities, Map<?, ?> info, LogLevel level) {
    protocolVersion = version;
    clientCapabilities = capabilities;
    clientInfo = info;
    logLevel = level;
    state.set(READY);
  }

  /** Whether the client declared {@code capability} ({@code sampling}, {@code elicitation}) in initialize. */
  boolean clientDeclared(String capability) {
    return clientCapabilities.get(capability) != null;
  }

  void logLevel(LogLevel level) {
    logLevel = level;
  }

  LogLevel logLevel() {
    return logLevel;
  }

  /**
   * Names {@code instance} in the ids of the requests this session sends its client from now on
   * ({@code fusion-<instance>-<n>}), so that a response the client sends to another instance of the
   * server can be handed back to this one ({@link #askedBy}).
   *
   * @throws IllegalArgumentException unless {@code instance} is 1 to 64 ASCII letters and digits
   */
  public void asksAs(String instance) {
    if (instance == null || !instance.matches("[A-Za-z0-9]{1,64}")) {
      throw new IllegalArgumentException("An instance's name in request ids must be 1 to 64 ASCII"
          + " letters and digits, got '" + instance + "'");
    }
    askPrefix = ASK_PREFIX + instance + "-";
  }

  /**
   * The instance named in {@code id}, the id of a request a session {@link #asksAs named} it in,
   * or {@code null} when {@code id} names none.
   */
  public static String askedBy(Object id) {
    java.util.regex.Matcher m = id instanceof String s ? ASKED.matcher(s) : null;
    return m != null && m.matches() ? m.group(1) : null;
  }

  /**
   * Hands the client's {@code response} to the request of this session it answers; false when it
   * is not a response or no request of this session waits for it (answered, timed out, or asked
   * by another instance).
   */
  public boolean answer(Message response) {
    return response.kind() == Message.Kind.RESPONSE && answer(response.id(), response.tree());
  }

  /** Registers a request to the client under a fresh id; the future completes with its result. */
  Object ask(CompletableFuture<Map<String, Object>> answer) {
    String id = askPrefix + askIds.incrementAndGet();
    asked.put(id, answer);
    if (closed) {
      answer.completeExceptionally(new IllegalStateException("the session closed"));
    }
    return id;
  }

  void forgetAsk(Object id) {
    asked.remove(Edge.idKey(id));
  }

  /**
   * Hands the client's response to the request it answers; false when the server is not waiting
   * for a response with that id.
   */
  @SuppressWarnings("unchecked")
  boolean answer(Object id, Map<String, Object> response) {
    CompletableFuture<Map<String, Object>> waiting = id == null ? null : asked.remove(Edge.idKey(id));
    if (waiting == null) {
      return false;
    }
    waiting.complete(response);
    return true;
  }

  /** The transport of this session's messages (known from its first), for its duration's label. */
  void transport(String networkTransport) {
    if (transport == null) {
      transport = networkTransport;
    }
  }

  void watch(Object requestId, RequestTrace trace) {
    if (requestId != null) {
      watched.put(Edge.idKey(requestId), trace);
    }
  }

  void unwatch(Object requestId, RequestTrace trace) {
    if (requestId != null) {
      watched.remove(Edge.idKey(requestId), trace);
    }
  }

  boolean watching(Object requestId, RequestTrace trace) {
    return requestId != null && watched.get(Edge.idKey(requestId)) == trace;
  }

  void opened() {
    open.incrementAndGet();
  }

  void settled() {
    open.decrementAndGet();
  }

  /** Registers a call in flight under its id; {@code null} if a call with that id is in flight. */
  Call track(Object requestId) {
    Call call = new Call(Edge.idKey(requestId));
    if (streams.containsKey(call.key)) {
      return null;
    }
    return inFlight.putIfAbsent(call.key, call) == null ? call : null;
  }

  /**
   * Registers a stream answering request {@code requestId} on this session's channel, which
   * {@code end} stops: false when a call or stream with that id is in flight, or the session is
   * closed.
   */
  boolean holdStream(Object requestId, Runnable end) {
    Object key = Edge.idKey(requestId);
    if (closed || inFlight.containsKey(key)) {
      return false;
    }
    return streams.putIfAbsent(key, end) == null;
  }

  /** Forgets the stream answering {@code requestId}, which the server ended itself. */
  void releaseStream(Object requestId) {
    streams.remove(Edge.idKey(requestId));
  }

  void untrack(Call call) {
    inFlight.remove(call.key, call);
  }

  /** Cancels the call in flight with this id; false when none is. */
  boolean cancel(Object requestId) {
    Call call = inFlight.remove(Edge.idKey(requestId));
    if (call == null) {
      Runnable stream = streams.remove(Edge.idKey(requestId));
      if (stream != null) {
        stream.run();
      }
      return stream != null;
    }
    call.cancel();
    return true;
  }

  /**
   * Ends the tracking of {@code call} once nothing holds it any more: its dispatching thread is done
   * and, for an async action, its stage answered.
   */
  void done(Call call) {
    if (call.release()) {
      untrack(call);
      settled();
    }
  }

  /** A call in flight: cancelling it interrupts its thread and discards its late reply. */
  static final class Call {
    final Object key;
    private volatile boolean cancelled;
    private volatile Thread runner;
    /** Who still needs the call tracked: its dispatching thread, and an async call until answered. */
    private final AtomicInteger holds = new AtomicInteger(1);
    /** Cancels what runs without a thread (an async call's stage); {@code null} for none. */
    private Runnable onCancel;

    /** One more party keeps the call tracked until it {@linkplain EdgeSession#done is done}. */
    void hold() {
      holds.incrementAndGet();
    }

    /** Whether this release was the last. */
    boolean release() {
      return holds.decrementAndGet() == 0;
    }

    /** Runs {@code cancel} when the call is cancelled (at once if it already was). */
    void onCancel(Runnable cancel) {
      boolean now;
      synchronized (this) {
        now = cancelled;
        onCancel = now ? null : cancel;
      }
      if (now) {
        cancel.run();
      }
    }

    Call(Object key) {
      this.key = key;
    }

    synchronized void running(Thread thread) {
      runner = thread;
      if (cancelled && thread != null) {
        thread.interrupt();
      }
    }

    void cancel() {
      Runnable hook;
      synchronized (this) {
        cancelled = true;
        Thread t = runner;
        if (t != null) {
          t.interrupt();
        }
        hook = onCancel;
        onCancel = null;
      }
      if (hook != null) {
        hook.run();
      }
    }

    boolean cancelled() {
      return cancelled;
    }
  }
}
