package dev.mcpfusion.testing.internal;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A connected pair of MCP transports in one JVM: a server side ({@link #serverSide()}, an
 * {@link McpServerTransportProvider} with exactly one session) and a client side
 * ({@link #clientSide()}, an {@link McpClientTransport}).
 *
 * <p>Every message crosses the pair as JSON bytes written by the server's mapper and parsed again
 * on the other side, exactly as on a wire: no object is shared between client and server, and the
 * text of every message is recorded ({@link #serverToClient()}, {@link #clientToServer()}).
 * Each direction is delivered, in order, by its own daemon thread; sending never blocks the
 * caller, and requests are handed to the session on Reactor's bounded-elastic scheduler so a slow
 * handler never holds up the messages behind it.
 *
 * <p>Before a client message reaches the session it goes through the <em>edge</em> (the
 * framework's {@code FusionServer::intercept}): when the edge answers, its response goes straight
 * back to the client and the session never sees the message.
 */
public final class InProcessTransport implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InProcessTransport.class);
  private static final AtomicInteger PAIRS = new AtomicInteger();

  private final McpJsonMapper mapper;
  private final Function<JSONRPCMessage, Optional<JSONRPCResponse>> edge;
  private final ExecutorService toServer;
  private final ExecutorService toClient;
  private final List<String> serverToClient = Collections.synchronizedList(new ArrayList<>());
  private final List<String> clientToServer = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, ReplyCapture> captures = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile McpTransportContext serverContext = McpTransportContext.EMPTY;
  private final String threadPrefix;
  /** The delivery threads, joined by {@link #close()} so none outlives it. */
  private final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ServerSide serverSide = new ServerSide();
  private final ClientSide clientSide = new ClientSide();

  /**
   * A pair whose messages are written and read with {@code mapper}.
   *
   * @param mapper the JSON mapper of the server (used on both sides, like a shared wire format)
   * @param edge called with every client message before the session; a response it returns is
   *     sent to the client instead of handing the message to the session
   */
  public InProcessTransport(McpJsonMapper mapper,
      Function<JSONRPCMessage, Optional<JSONRPCResponse>> edge) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    this.edge = Objects.requireNonNull(edge, "edge");
    this.threadPrefix = "fusion-tester-" + PAIRS.incrementAndGet() + "-";
    this.toServer = Executors.newSingleThreadExecutor(daemon(threadPrefix + "to-server"));
    this.toClient = Executors.newSingleThreadExecutor(daemon(threadPrefix + "to-client"));
  }

  private java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      threads.add(t);
      return t;
    };
  }

  /** The server half: give it to {@code FusionServer.connect(...)} or {@code McpServer.sync(...)}. */
  public McpServerTransportProvider serverSide() {
    return serverSide;
  }

  /** The client half: give it to {@code McpClient.sync(...)}. */
  public McpClientTransport clientSide() {
    return clientSide;
  }

  /** The JSON text of every message the server sent, in the order it was sent (a snapshot). */
  public List<String> serverToClient() {
    synchronized (serverToClient) {
      return List.copyOf(serverToClient);
    }
  }

  /** The JSON text of every message the client sent, in the order it was sent (a snapshot). */
  public List<String> clientToServer() {
    synchronized (clientToServer) {
      return List.copyOf(clientToServer);
    }
  }

  /**
   * The transport context the server session sees with every later client message (what an HTTP
   * transport fills with headers); empty by default.
   */
  public void serverContext(McpTransportContext context) {
    this.serverContext = Objects.requireNonNull(context, "context");
  }

  /** The name prefix of this pair's two delivery threads. */
  String threadPrefix() {
    return threadPrefix;
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed.get();
  }

  /** Stops delivering messages in both directions; messages still queued are dropped. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    toServer.shutdown();
    toClient.shutdown();
    try {
      if (!toServer.awaitTermination(2, TimeUnit.SECONDS)) {
        toServer.shutdownNow();
      }
      if (!toClient.awaitTermination(2, TimeUnit.SECONDS)) {
        toClient.shutdownNow();
      }
      // A terminated executor's worker may still be finishing its run method: wait for it.
      for (Thread t : threads) {
        if (t != Thread.currentThread()) {
          t.join(2_000);
        }
      }
    } catch (InterruptedException e) {
      toServer.shutdownNow();
      toClient.shutdownNow();
      Thread.currentThread().interrupt();
    }
    captures.clear();
  }

  // ---- client -> server ------------------------------------------------------------------------

  private Mono<Void> sendToServer(JSONRPCMessage message, ReplyCapture capture) {
    return Mono.defer(() -> {
      if (closed.get()) {
        return Mono.error(new IllegalStateException("The in-process transport is closed"));
      }
      byte[] bytes;
      try {
        bytes = mapper.writeValueAsBytes(message);
      } catch (Exception e) {
        return Mono.error(new IllegalArgumentException("Cannot serialize " + describe(message), e));
      }
      if (capture != null && message instanceof JSONRPCRequest request && request.id() != null
          && capture.method().equals(request.method())) {
        captures.put(String.valueOf(request.id()), capture);
      }
      clientToServer.add(new String(bytes, StandardCharsets.UTF_8));
      return execute(toServer, () -> deliverToServer(bytes));
    });
  }

  private void deliverToServer(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(mapper, text);
    } catch (Exception e) {
      LOG.warn("Unreadable client message dropped: {}", e.toString());
      answer(JSONRPCResponse.error(null, new JSONRPCError(McpSchema.ErrorCodes.PARSE_ERROR, "Parse error")));
      return;
    }
    Optional<JSONRPCResponse> answered;
    try {
      answered = edge.apply(message);
    } catch (RuntimeException e) {
      LOG.error("The server edge failed on {}", describe(message), e);
      if (message instanceof JSONRPCRequest request && request.id() != null) {
        answer(JSONRPCResponse.error(request.id(),
            new JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error")));
      }
      return;
    }
    if (answered != null && answered.isPresent()) {
      answer(answered.get());
      return;
    }
    McpServerSession session = serverSide.session;
    if (session == null) {
      LOG.warn("No server is connected; dropped {}", describe(message));
      if (message instanceof JSONRPCRequest request && request.id() != null) {
        answer(JSONRPCResponse.error(request.id(),
            new JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR, "No server is connected")));
      }
      return;
    }
    Mono<Void> handling = session.handle(message)
        .contextWrite(ctx -> ctx.put(McpTransportContext.KEY, serverContext));
    if (message instanceof JSONRPCRequest) {
      // A request may run a slow (or blocking) handler: never on this delivery thread.
      handling = handling.subscribeOn(Schedulers.boundedElastic());
    }
    handling.subscribe(null, e -> LOG.warn("The session failed on {}", describe(message), e));
  }

  private void answer(JSONRPCResponse response) {
    serverSide.transport.sendMessage(response)
        .subscribe(null, e -> LOG.warn("Could not answer the client: {}", e.toString()));
  }

  // ---- server -> client ------------------------------------------------------------------------

  private Mono<Void> sendToClient(JSONRPCMessage message) {
    return Mono.defer(() -> {
      if (closed.get()) {
        LOG.debug("Transport closed; dropped {}", describe(message));
        return Mono.empty();
      }
      byte[] bytes;
      try {
        bytes = mapper.writeValueAsBytes(message);
      } catch (Exception e) {
        LOG.error("Cannot serialize {}", describe(message), e);
        if (message instanceof JSONRPCResponse response && response.id() != null) {
          // The request still gets exactly one reply, without the exception text.
          return sendToClient(JSONRPCResponse.error(response.id(),
              new JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error")));
        }
        return Mono.error(new IllegalArgumentException("Cannot serialize " + describe(message), e));
      }
      serverToClient.add(new String(bytes, StandardCharsets.UTF_8));
      return execute(toClient, () -> deliverToClient(bytes));
    });
  }

  private void deliverToClient(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(mapper, text);
    } catch (Exception e) {
      LOG.warn("Unreadable server message dropped: {}", e.toString());
      return;
    }
    if (message instanceof JSONRPCResponse response && response.id() != null) {
      ReplyCapture capture = captures.remove(String.valueOf(response.id()));
      if (capture != null) {
        capture.complete(text);
      }
    }
    Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler = clientSide.handler;
    if (handler == null) {
      LOG.warn("No client is connected; dropped {}", describe(message));
      return;
    }
    // The client session answers server requests itself, through sendMessage; what the handler
    // emits is the inbound message passed through, not a reply.
    handler.apply(Mono.just(message))
        .subscribe(null, e -> LOG.warn("The client failed on {}", describe(message), e));
  }

  // ---- shared ----------------------------------------------------------------------------------

  private Mono<Void> execute(ExecutorService executor, Runnable task) {
    try {
      executor.execute(task);
      return Mono.empty();
    } catch (RejectedExecutionException e) {
      return Mono.error(new IllegalStateException("The in-process transport is closed"));
    }
  }

  private <T> T unmarshal(Object data, TypeRef<T> type) {
    return mapper.convertValue(data, type);
  }

  private static String describe(JSONRPCMessage message) {
    if (message instanceof JSONRPCRequest request) {
      return "request " + request.method() + " #" + request.id();
    }
    if (message instanceof JSONRPCResponse response) {
      return "response #" + response.id();
    }
    if (message instanceof McpSchema.JSONRPCNotification notification) {
      return "notification " + notification.method();
    }
    return String.valueOf(message);
  }

  /** The server half: one provider, one session, created when the server binds to it. */
  private final class ServerSide implements McpServerTransportProvider {
    private final SessionTransport transport = new SessionTransport();
    private volatile McpServerSession session;

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
      if (session != null) {
        throw new IllegalStateException("This in-process transport is already bound to a server");
      }
      session = sessionFactory.create(transport);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
      McpServerSession s = session;
      return s == null ? Mono.empty() : s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
      McpServerSession s = session;
      return s == null ? Mono.empty() : s.closeGracefully();
    }

    @Override
    public void close() {
      McpServerSession s = session;
      if (s != null) {
        s.close();
      }
    }
  }

  /** The transport the server session writes to. */
  private final class SessionTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return sendToClient(message);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return unmarshal(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public void close() {}
  }

  /** The client half. */
  private final class ClientSide implements McpClientTransport {
    private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
      return Mono.fromRunnable(() -> {
        if (this.handler != null) {
          throw new IllegalStateException("This in-process transport already has a client");
        }
        this.handler = Objects.requireNonNull(handler, "handler");
      });
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.deferContextual(ctx -> {
        Object capture = null;
        Object transportContext = ctx.getOrDefault(McpTransportContext.KEY, null);
        if (transportContext instanceof McpTransportContext tc) {
          capture = tc.get(ReplyCapture.CONTEXT_KEY);
        }
        return sendToServer(message, capture instanceof ReplyCapture c ? c : null);
      });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return unmarshal(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }
  }
}
