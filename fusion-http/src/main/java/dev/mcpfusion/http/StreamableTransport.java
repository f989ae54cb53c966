package dev.mcpfusion.http;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.ProtocolVersions;
import jakarta.servlet.AsyncContext;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Streamable HTTP sessions, on the SDK's classic transport SPI ({@link McpServerTransportProvider}),
 * which is what {@code FusionServer.connect} takes.
 *
 * <p>Each {@code initialize} creates one SDK session; a request's response is handed back to the
 * POST that carried it (a plain {@code application/json} answer), and messages the server starts
 * itself (notifications, requests) go to the session's GET event stream when one is open.
 */
final class StreamableTransport implements McpServerTransportProvider {
  private static final Logger log = LoggerFactory.getLogger(StreamableTransport.class);

  /** The protocol versions with Streamable HTTP (it first appeared in 2025-03-26). */
  static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2025_03_26,
      ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

  private final McpJsonMapper mapper;
  private final Duration idleTimeout;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private volatile McpServerSession.Factory sessionFactory;

  StreamableTransport(McpJsonMapper mapper, Duration idleTimeout) {
    this.mapper = mapper;
    this.idleTimeout = idleTimeout;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    this.sessionFactory = sessionFactory;
  }

  @Override
  public List<String> protocolVersions() {
    return PROTOCOL_VERSIONS;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    List<Mono<Void>> sends = new ArrayList<>();
    for (Session session : sessions.values()) {
      sends.add(session.mcp.sendNotification(method, params)
          .onErrorResume(e -> {
            log.debug("Could not notify session {}", session.id(), e);
            return Mono.empty();
          }));
    }
    return Flux.merge(sends).then();
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::closeAll);
  }

  /** Creates a session (not yet registered: {@link #register} once its initialize succeeded). */
  Session newSession() {
    McpServerSession.Factory factory = sessionFactory;
    if (factory == null) {
      throw new IllegalStateException("The transport is not connected to a server");
    }
    expireIdle();
    Session session = new Session();
    session.mcp = factory.create(session);
    return session;
  }

  void register(Session session) {
    sessions.put(session.id(), session);
  }

  /** The live session with this id (marking it used), or {@code null}. */
  Session find(String id) {
    Session session = id == null ? null : sessions.get(id);
    if (session == null) {
      return null;
    }
    if (session.idleNanos() > idleTimeout.toNanos() && session.openRequests.get() == 0
        && session.stream == null) {
      remove(session);
      return null;
    }
    session.touch();
    return session;
  }

  /** Closes sessions unused for longer than the idle limit (run whenever a session is created). */
  private void expireIdle() {
    long limit = idleTimeout.toNanos();
    for (Session session : sessions.values()) {
      if (session.idleNanos() > limit && session.openRequests.get() == 0 && session.stream == null) {
        log.debug("Session {} idle for longer than {}; closing it", session.id(), idleTimeout);
        remove(session);
      }
    }
  }

  void remove(Session session) {
    if (sessions.remove(session.id(), session)) {
      session.closeStream();
      session.mcp.closeGracefully().subscribe(null, e -> log.debug("Session close failed", e));
    }
  }

  /** Ends every open event stream (shutdown starts here, so streams do not hold it up). */
  void closeStreams() {
    for (Session session : sessions.values()) {
      session.closeStream();
    }
  }

  void closeAll() {
    for (Session session : new ArrayList<>(sessions.values())) {
      remove(session);
    }
  }

  byte[] json(Object value) throws IOException {
    return mapper.writeValueAsBytes(value);
  }

  /** One MCP session over HTTP: the SDK session plus where its outgoing messages go. */
  final class Session implements McpServerTransport {
    McpServerSession mcp;
    private final Map<String, CompletableFuture<McpSchema.JSONRPCResponse>> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean initialized = new AtomicBoolean();
    private volatile String protocolVersion;
    private volatile EventStream stream;
    private volatile long lastUsed = System.nanoTime();
    /** Requests of this session being answered now (an idle session has none). */
    final java.util.concurrent.atomic.AtomicInteger openRequests = new java.util.concurrent.atomic.AtomicInteger();

    void touch() {
      lastUsed = System.nanoTime();
    }

    long idleNanos() {
      return System.nanoTime() - lastUsed;
    }

    String id() {
      return mcp.getId();
    }

    boolean initialized() {
      return initialized.get();
    }

    void markInitialized() {
      initialized.set(true);
    }

    String protocolVersion() {
      return protocolVersion;
    }

    void protocolVersion(String version) {
      this.protocolVersion = version;
    }

    /** Registers a waiter for the response to request {@code id}; {@code null} if one is already waiting. */
    CompletableFuture<McpSchema.JSONRPCResponse> expect(Object id) {
      CompletableFuture<McpSchema.JSONRPCResponse> future = new CompletableFuture<>();
      return pending.putIfAbsent(key(id), future) == null ? future : null;
    }

    void forget(Object id) {
      pending.remove(key(id));
    }

    void openStream(AsyncContext async, OutputStream out) {
      EventStream previous = stream;
      stream = new EventStream(async, out);
      if (previous != null) {
        previous.close();
      }
    }

    void closeStream() {
      EventStream s = stream;
      stream = null;
      if (s != null) {
        s.close();
      }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> route(message));
    }

    private void route(McpSchema.JSONRPCMessage message) {
      if (message instanceof McpSchema.JSONRPCResponse response) {
        CompletableFuture<McpSchema.JSONRPCResponse> waiter = pending.remove(key(response.id()));
        if (waiter != null) {
          waiter.complete(response);
          return;
        }
      }
      EventStream s = stream;
      if (s == null) {
        log.debug("Session {}: no event stream open; dropping a server-initiated message", id());
        return;
      }
      try {
        s.send(json(message));
      } catch (IOException e) {
        log.debug("Session {}: the event stream is gone", id(), e);
        if (stream == s) {
          stream = null;
        }
        s.close();
      }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(this::closeStream);
    }

    @Override
    public void close() {
      closeStream();
    }
  }

  private static String key(Object id) {
    return id instanceof Number n ? "n:" + n : "s:" + id;
  }

  /** An open GET event stream (text/event-stream). */
  static final class EventStream {
    private final AsyncContext async;
    private final OutputStream out;
    private final AtomicBoolean closed = new AtomicBoolean();

    EventStream(AsyncContext async, OutputStream out) {
      this.async = async;
      this.out = out;
    }

    synchronized void send(byte[] json) throws IOException {
      if (closed.get()) {
        throw new IOException("closed");
      }
      out.write("event: message\ndata: ".getBytes(StandardCharsets.UTF_8));
      out.write(json);
      out.write("\n\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    void close() {
      if (closed.compareAndSet(false, true)) {
        try {
          async.complete();
        } catch (RuntimeException e) {
          // Already completed by the container (client went away): nothing left to release.
          log.trace("Event stream already completed", e);
        }
      }
    }
  }
}
