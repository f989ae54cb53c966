package dev.mcpfusion.http;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.SessionState;
import dev.mcpfusion.core.edge.Sink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Streamable HTTP sessions (2025-03-26 … 2025-11-25): one {@link EdgeSession} per
 * {@code Mcp-Session-Id}, and where its messages go. A request's reply is handed back to the POST
 * that carried it (a plain {@code application/json} answer); messages the server starts itself
 * (notifications, requests) go to the session's GET event stream. Every stream of a session is
 * resumable ({@link SessionStreams}): its events are kept in the {@link EventStore} for a client
 * that reconnects with {@code Last-Event-ID}, and forgotten when the session closes.
 *
 * <p>While any event stream is open, a timer thread writes a heartbeat comment to every stream at
 * the heartbeat interval and closes the sessions idle for longer than the idle limit: a stream
 * whose client went away without {@code DELETE} fails its next write and is released, and its
 * session then idles out like any unused one (a session with a live stream never does).
 */
final class HttpSessions {
  private static final Logger log = LoggerFactory.getLogger(HttpSessions.class);

  private final Edge edge;
  /** Where every event of every session's streams is kept for a resume. */
  private final EventStore store;
  /** Where sessions are shared with other instances; {@link SessionStore#none()} when they are not. */
  private final SessionStore shared;
  private final Duration idleTimeout;
  private final Duration heartbeat;
  /** Writes the heartbeats and sweeps idle sessions; started with the first event stream. */
  private ScheduledExecutorService timer;
  private boolean stopped;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final int maxSessions;
  /** Sessions created and not yet closed (those initializing included): never above the cap. */
  private final AtomicInteger open = new AtomicInteger();
  /** The clients' answers routed between instances, or {@code null}: the store routes none. */
  private final RoutedAnswers answers;

  HttpSessions(Edge edge, Duration idleTimeout, int maxSessions, Duration heartbeat,
      EventStore store, SessionStore shared) {
    this.edge = edge;
    this.store = store;
    this.shared = shared;
    this.idleTimeout = idleTimeout;
    this.maxSessions = maxSessions;
    this.heartbeat = heartbeat;
    this.answers = shared.answerRelay().map(relay -> new RoutedAnswers(relay, edge, id -> {
      Session held = sessions.get(id);
      return held == null ? null : held.edge;
    })).orElse(null);
  }

  /** Where the clients' answers of these sessions are routed, or {@code null} when nowhere. */
  RoutedAnswers answers() {
    return answers;
  }

  /** Starts the heartbeat timer unless it runs (or the sessions are closed). */
  private synchronized void startTimer() {
    if (timer != null || stopped) {
      return;
    }
    timer = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "fusion-http-heartbeat");
      thread.setDaemon(true);
      return thread;
    });
    long nanos = heartbeat.toNanos();
    timer.scheduleWithFixedDelay(this::sweep, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * One heartbeat: a comment to every open event stream (releasing those whose client is gone),
   * then the idle sessions closed. Never throws: a failed sweep must not cancel the next ones.
   */
  private void sweep() {
    try {
      for (Session session : sessions.values()) {
        session.streams.heartbeat();
      }
      expireIdle();
    } catch (RuntimeException e) {
      log.warn("The event-stream heartbeat failed; it runs again in {}", heartbeat, e);
    }
  }

  /** GET connections open now (sessions' GET streams, and streams resumed on a GET). */
  int openStreams() {
    int streams = 0;
    for (Session session : sessions.values()) {
      streams += session.streams.connections();
    }
    return streams;
  }

  /**
   * Creates a session (not yet registered: {@link #register} once its initialize succeeded), or
   * {@code null} when {@code maxSessions} are open already (after closing the idle ones).
   */
  Session newSession() {
    return newSession(null);
  }

  /** A new session, or one another instance initialised when {@code saved} is not null. */
  private Session newSession(StoredSession saved) {
    expireIdle();
    if (open.incrementAndGet() > maxSessions) {
      open.decrementAndGet();
      return null;
    }
    Session session = new Session();
    // A request runs on the container thread that carries it: no hand-off to another pool.
    session.edge = saved == null ? edge.openSession(session)
        : edge.resumeSession(session, new SessionState(saved.sessionId(), saved.protocolVersion(),
            saved.clientCapabilities(), saved.clientInfo(), saved.logLevel()));
    if (answers != null) {
      session.edge.asksAs(answers.instance());
    }
    session.streams = new SessionStreams(session.id(), store, session::touch, this::startTimer);
    if (saved != null) {
      session.owner = saved.owner();
    }
    return session;
  }

  /** Sessions open now (initializing ones included). */
  int open() {
    return open.get();
  }

  /**
   * Registers an initialised session, saving it in the session store first.
   *
   * @throws StoreUnavailable when the session store cannot save it
   */
  void register(Session session) {
    save(session);
    sessions.put(session.id(), session);
  }

  /**
   * Saves the session's state in the session store (after initialize, or a change of log level).
   *
   * @throws StoreUnavailable when the store fails
   */
  void save(Session session) {
    if (shared == SessionStore.none()) {
      return;
    }
    try {
      SessionState state = edge.sessionState(session.edge);
      shared.save(new StoredSession(state.id(), session.owner == null ? "" : session.owner,
          state.protocolVersion(), state.clientCapabilities(), state.clientInfo(), state.logLevel()));
      session.savedAt = System.nanoTime();
    } catch (RuntimeException e) {
      throw new StoreUnavailable(e);
    }
  }

  /**
   * The live session with this id (marking it used), or {@code null}. A session this process does
   * not hold is loaded from the session store, when another instance saved it there.
   *
   * @throws StoreUnavailable when the session store cannot answer
   * @throws AtCapacity when the store holds the session but this instance holds its most sessions
   */
  Session find(String id) {
    Session session = id == null ? null : sessions.get(id);
    if (session == null) {
      return id == null ? null : load(id);
    }
    if (session.idle()) {
      remove(session);
      // Idle here, but perhaps used on another instance meanwhile: the store decides.
      return load(id);
    }
    session.touch();
    if (shared != SessionStore.none()
        && System.nanoTime() - session.savedAt > idleTimeout.toNanos() / 4) {
      // Keeps the shared copy alive while this instance serves the session; at most a few times
      // per idle limit, so a call costs no store round trip.
      try {
        shared.touch(session.id());
        session.savedAt = System.nanoTime();
      } catch (RuntimeException e) {
        log.debug("Session {}: the session store did not take a touch; trying later", id, e);
      }
    }
    return session;
  }

  private Session load(String id) {
    if (shared == SessionStore.none()) {
      return null;
    }
    StoredSession saved;
    try {
      saved = shared.load(id).orElse(null);
    } catch (RuntimeException e) {
      throw new StoreUnavailable(e);
    }
    if (saved == null) {
      return null;
    }
    Session session = newSession(saved);
    if (session == null) {
      // The session exists: a 404 would make the client start over; another instance (or this
      // one, once a session ends) can serve it.
      throw new AtCapacity(maxSessions);
    }
    session.savedAt = System.nanoTime();
    Session raced = sessions.putIfAbsent(id, session);
    if (raced != null) {
      session.close(false);
      raced.touch();
      return raced;
    }
    log.debug("Session {}: initialised on another instance, served here too", id);
    return session;
  }

  /** Closes sessions unused for longer than the idle limit (run whenever a session is created). */
  private void expireIdle() {
    for (Session session : sessions.values()) {
      if (session.idle()) {
        log.debug("Session {} idle for longer than {}; closing it", session.id(), idleTimeout);
        remove(session);
      }
    }
  }

  /** Closes the session here; another instance may still serve it from the session store. */
  void remove(Session session) {
    if (sessions.remove(session.id(), session)) {
      session.close(shared == SessionStore.none());
    }
  }

  /** The client ended the session ({@code DELETE}): closed here and forgotten by the stores. */
  void end(Session session) {
    if (sessions.remove(session.id(), session)) {
      session.close(true);
    }
    if (shared != SessionStore.none()) {
      try {
        shared.remove(session.id());
      } catch (RuntimeException e) {
        log.warn("Session {}: the session store failed to forget it; it expires there", session.id(), e);
      }
    }
  }

  /** Sends a notification to every session with an open event stream. */
  void notifyAll(String method, Map<String, Object> params) {
    for (Session session : sessions.values()) {
      session.edge.notify(method, params);
    }
  }

  /** Ends every open event stream (shutdown starts here, so streams do not hold it up). */
  void closeStreams() {
    for (Session session : sessions.values()) {
      session.streams.closeConnections();
    }
  }

  void closeAll() {
    synchronized (this) {
      stopped = true;
      if (timer != null) {
        timer.shutdownNow();
      }
    }
    if (answers != null) {
      answers.close();
    }
    for (Session session : new ArrayList<>(sessions.values())) {
      remove(session);
    }
  }

  /** The session store failed: the request is answered 503, to be retried. */
  static final class StoreUnavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreUnavailable(RuntimeException cause) {
      super("The session store failed", cause);
    }
  }

  /**
   * A session another instance saved cannot be taken on here: this instance holds its most
   * sessions. The request is answered 503, to be retried (behind a load balancer, on another).
   */
  static final class AtCapacity extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int maxSessions;

    AtCapacity(int maxSessions) {
      super("This instance holds its most sessions", null, false, false);
      this.maxSessions = maxSessions;
    }
  }

  /** A reply the edge wrote: its bytes and JSON-RPC error code (0 for a result). */
  record Reply(int errorCode, byte[] json) {}

  /** One MCP session over HTTP: the edge's session plus where its messages go. */
  final class Session implements Sink {
    EdgeSession edge;
    private final Map<Object, CompletableFuture<Reply>> pending = new ConcurrentHashMap<>();
    /** Set right after the edge opens the session and names it (its id keys the stored events). */
    private volatile SessionStreams streams;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long lastUsed = System.nanoTime();
    /** Requests of this session being answered now (an idle session has none). */
    final AtomicInteger openRequests = new AtomicInteger();
    /**
     * Who opened the session: its id is a handle, never a credential, so a request of another
     * caller that names it is told the session does not exist (the MCP security guidance binds a
     * session to its user). {@code null} until initialize records the caller.
     */
    private volatile String owner;
    /** When the session store last saved or touched this session (nanoTime). */
    private volatile long savedAt;

    String id() {
      return edge.id();
    }

    /** Records {@code caller} as the session's owner (at initialize). */
    void ownedBy(Caller caller) {
      owner = ownerKey(caller);
    }

    /** Whether a request from {@code caller} may use this session: the one who opened it only. */
    boolean belongsTo(Caller caller) {
      String o = owner;
      return o == null || o.equals(ownerKey(caller));
    }

    void touch() {
      lastUsed = System.nanoTime();
    }

    boolean idle() {
      return System.nanoTime() - lastUsed > idleTimeout.toNanos() && openRequests.get() == 0
          && streams.connections() == 0;
    }

    /** Registers a waiter for the reply to request {@code id}; {@code null} if one is already waiting. */
    CompletableFuture<Reply> expect(Object id) {
      CompletableFuture<Reply> future = new CompletableFuture<>();
      return pending.putIfAbsent(key(id), future) == null ? future : null;
    }

    void forget(Object id) {
      pending.remove(key(id));
    }

    @Override
    public void reply(Object id, int errorCode, byte[] json) {
      CompletableFuture<Reply> waiter = id == null ? null : pending.remove(key(id));
      if (waiter != null) {
        waiter.complete(new Reply(errorCode, json));
        return;
      }
      // A reply nobody waits for any more (its POST timed out): the event stream may still take it.
      push(json);
    }

    /** A server-initiated message: an event of the session's GET stream. */
    @Override
    public void push(byte[] json) {
      SessionStreams named = streams;
      if (named != null) {
        named.push(json);
      }
    }

    /** The session's event streams (the GET stream and the streamed POST responses). */
    SessionStreams streams() {
      return streams;
    }

    /** Closes the session here; {@code forget}: its events are forgotten by the event store too. */
    void close(boolean forget) {
      if (closed.compareAndSet(false, true)) {
        open.decrementAndGet();
      }
      streams.close(forget);
      edge.close();
    }
  }

  private static Object key(Object id) {
    return Edge.idKey(id);
  }

  /**
   * The identity a session is bound to: the subject and the client id the authenticator vouched
   * for (its scopes may change between tokens; its identity may not); every unauthenticated request
   * is the local caller.
   */
  private static String ownerKey(Caller caller) {
    return caller.isLocal() ? "local"
        : caller.subject().orElse("") + "\u0000" + caller.clientId().orElse("");
  }
}
