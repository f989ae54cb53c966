package dev.mcpfusion.core.transport;

import dev.mcpfusion.core.modern.ModernEra;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;

/**
 * Newline-delimited JSON-RPC over a byte stream pair (stdio), on the SDK's public transport SPI.
 *
 * <p>Why not the SDK's own stdio provider: it funnels every response through one Reactor sink that
 * drops responses under concurrent load, and any unreadable line ends it. Here every line is framed
 * and parsed by us (UTF-8, whatever the platform charset); an unreadable line gets the JSON-RPC
 * error the spec names and the session goes on; every message first passes the framework's edge
 * ({@code intercept}); responses are written whole, one per line, under one lock, in any order; at
 * end of input, answers in progress are finished (bounded by {@code drainTimeout}) before return.
 *
 * <p>Both eras on one stream: with a {@link ModernEra}, a request that
 * {@link ModernEra#isModernRequest} recognises (2026-07-28: {@code params._meta} carries the
 * protocol version, or {@code server/discover}) is answered by the modern (stateless) server
 * without any handshake, and a {@code notifications/cancelled} naming a modern request in flight
 * cancels it; everything else goes to the classic session.
 *
 * <p>Limits beyond a line-length cap (message nesting depth, array length) are not handled here
 * yet; see the README's design notes.
 */
public final class StdioTransport implements McpServerTransportProvider {
  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  /** The longest line accepted, in characters; longer lines are answered as invalid requests. */
  public static final int MAX_LINE_CHARS = 4 * 1024 * 1024;

  private final InputStream in;
  private final OutputStream out;
  private final McpJsonMapper mapper;
  private final Function<McpSchema.JSONRPCMessage, Optional<McpSchema.JSONRPCResponse>> edge;
  private final Duration drainTimeout;
  private final Object writeLock = new Object();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile McpServerSession.Factory sessionFactory;
  private volatile McpServerSession session;
  private final ModernEra modern;
  private final Map<Object, Disposable> modernInFlight = new ConcurrentHashMap<>();

  /**
   * A transport over the given streams.
   *
   * @param edge the framework's edge: answers a message itself, or lets it through to the session
   */
  public StdioTransport(InputStream in, OutputStream out, McpJsonMapper mapper,
      Function<McpSchema.JSONRPCMessage, Optional<McpSchema.JSONRPCResponse>> edge,
      Duration drainTimeout) {
    this(in, out, mapper, edge, drainTimeout, null);
  }

  /**
   * A transport over the given streams that also serves the stateless 2026-07-28 protocol.
   *
   * @param modern the modern era of the same server (requests routed by
   *     {@link ModernEra#isModernRequest}), or {@code null} for the classic era only
   */
  public StdioTransport(InputStream in, OutputStream out, McpJsonMapper mapper,
      Function<McpSchema.JSONRPCMessage, Optional<McpSchema.JSONRPCResponse>> edge,
      Duration drainTimeout, ModernEra modern) {
    this.modern = modern;
    this.in = in;
    this.out = out;
    this.mapper = mapper;
    this.edge = edge;
    this.drainTimeout = drainTimeout;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    this.sessionFactory = sessionFactory;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> closed.set(true));
  }

  /**
   * Reads messages until end of input, then waits for answers in progress and returns. Blocks the
   * calling thread.
   */
  public void serve() throws IOException {
    if (sessionFactory == null) {
      throw new IllegalStateException("StdioTransport.serve() before the SDK server was connected");
    }
    session = sessionFactory.create(new LineTransport());
    try (BoundedLineReader reader = new BoundedLineReader(
        new InputStreamReader(in, StandardCharsets.UTF_8), MAX_LINE_CHARS)) {
      String line;
      while (!closed.get() && (line = reader.readLine()) != null) {
        try {
          if (line == BoundedLineReader.OVERSIZED) {
            writeError(null, -32600, "Invalid Request: message larger than " + MAX_LINE_CHARS + " characters");
            continue;
          }
          accept(line);
        } catch (RuntimeException e) {
          // One bad message never ends the session.
          log.error("Failed to process an incoming line; answering -32603", e);
          writeError(null, -32603, "Internal error");
        }
      }
    }
    drain();
    session.closeGracefully().block(Duration.ofSeconds(5));
  }

  private void accept(String line) {
    if (line.isEmpty()) {
      return; // a bare newline is framing, not a message
    }
    Object tree;
    try {
      tree = mapper.readValue(line, Object.class);
    } catch (IOException | RuntimeException e) {
      writeError(null, -32700, "Parse error: the line is not valid JSON");
      return;
    }
    if (!(tree instanceof Map<?, ?> object)) {
      writeError(null, -32600, "Invalid Request: expected a JSON-RPC object");
      return;
    }
    Object id = usableId(object.get("id"));
    if (object.containsKey("id") && id == null) {
      writeError(null, -32600, "Invalid Request: \"id\" must be a string or a number");
      return;
    }
    if (!"2.0".equals(object.get("jsonrpc"))) {
      writeError(id, -32600, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
      return;
    }
    Object method = object.get("method");
    if (method != null && !(method instanceof String)) {
      writeError(id, -32600, "Invalid Request: \"method\" must be a string");
      return;
    }
    if ("ping".equals(method) && id != null) {
      // Answered here, at any time: the SDK session holds every request that arrives before
      // initialize, ping included, which makes a liveness probe hang.
      writeResult(id, Map.of());
      return;
    }
    if (modern != null) {
      if (id != null && method != null && ModernEra.isModernRequest(object)) {
        dispatchModern(line, id);
        return;
      }
      Optional<Object> cancelled = ModernEra.cancelledRequestId(object);
      if (cancelled.isPresent() && cancelModern(cancelled.get())) {
        return;
      }
    }
    McpSchema.JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(mapper, line);
    } catch (IOException | RuntimeException e) {
      writeError(id, -32600, "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
      return;
    }
    Optional<McpSchema.JSONRPCResponse> answered;
    try {
      answered = edge.apply(message);
    } catch (RuntimeException e) {
      log.error("The edge failed on a message; answering -32603", e);
      writeError(id, -32603, "Internal error");
      return;
    }
    if (answered.isPresent()) {
      write(answered.get());
      return;
    }
    boolean request = message instanceof McpSchema.JSONRPCRequest;
    if (request) {
      inFlight.incrementAndGet();
    }
    session.handle(message)
        .doFinally(signal -> {
          if (request) {
            inFlight.decrementAndGet();
          }
        })
        .subscribe(null, error -> log.error("Session failed to handle a message", error));
  }

  /** A 2026-07-28 request: no session, no handshake; answered by the modern server. */
  private void dispatchModern(String line, Object id) {
    Object key = idKey(id);
    // Registered before subscribing, so a cancellation that arrives at once finds it.
    Disposable.Swap subscription = Disposables.swap();
    if (modernInFlight.putIfAbsent(key, subscription) != null) {
      // An answer with this id would be taken for the answer of the request still in flight.
      writeError(null, -32600, "Invalid Request: a request with this id is still in flight");
      return;
    }
    inFlight.incrementAndGet();
    subscription.update(modern.handle(line, McpTransportContext.EMPTY)
        .doFinally(signal -> {
          modernInFlight.remove(key, subscription);
          inFlight.decrementAndGet();
        })
        .subscribe(this::write, error -> {
          log.error("The modern server failed to handle a request; answering -32603", error);
          writeError(id, -32603, "Internal error");
        }));
  }

  /** Cancels a modern request in flight; false when {@code requestId} names none. */
  private boolean cancelModern(Object requestId) {
    Disposable subscription = modernInFlight.remove(idKey(requestId));
    if (subscription == null) {
      return false;
    }
    subscription.dispose(); // its doFinally settles the in-flight count
    return true;
  }

  /** 1, 1L and 1.0 name the same request; "1" another one. */
  private static Object idKey(Object id) {
    return id instanceof Number n && n.doubleValue() == n.longValue() ? (Object) n.longValue() : id;
  }

  private static Object usableId(Object id) {
    return id instanceof String || id instanceof Number ? id : null;
  }

  private void drain() {
    long deadline = System.nanoTime() + drainTimeout.toNanos();
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (inFlight.get() > 0) {
      log.warn("{} call(s) still in progress after {} at end of input", inFlight.get(), drainTimeout);
    }
  }

  private void writeResult(Object id, Object result) {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    response.put("id", id);
    response.put("result", result);
    write(response);
  }

  /**
   * Writes a JSON-RPC error. Built as a plain map because the SDK's response type refuses the
   * {@code "id": null} the spec requires when no usable id exists.
   */
  private void writeError(Object id, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    response.put("id", id);
    response.put("error", error);
    write(response);
  }

  private void write(Object message) {
    byte[] bytes;
    try {
      bytes = mapper.writeValueAsBytes(message);
    } catch (IOException e) {
      log.error("Could not serialize an outgoing message", e);
      return;
    }
    synchronized (writeLock) {
      try {
        out.write(bytes);
        out.write('\n');
        out.flush();
      } catch (IOException e) {
        log.warn("stdout is closed; stopping", e);
        closed.set(true);
      }
    }
  }

  /**
   * Splits input into lines without ever holding more than {@code max} characters of one: a longer
   * line is skipped up to its newline and reported as {@link #OVERSIZED}, so a client cannot make
   * the server buffer an unbounded message.
   */
  static final class BoundedLineReader implements AutoCloseable {
    /** Returned (by identity) for a line longer than the limit. */
    static final String OVERSIZED = new String("<oversized>");

    private final java.io.Reader reader;
    private final int max;
    private final char[] buffer = new char[8192];
    private int position;
    private int limit;

    BoundedLineReader(java.io.Reader reader, int max) {
      this.reader = reader;
      this.max = max;
    }

    /** The next line without its terminator ({@code \n} or {@code \r\n}), or {@code null} at end of input. */
    String readLine() throws IOException {
      StringBuilder line = new StringBuilder();
      boolean oversized = false;
      while (true) {
        if (position == limit) {
          limit = reader.read(buffer, 0, buffer.length);
          position = 0;
          if (limit <= 0) {
            limit = 0;
            if (oversized) {
              return OVERSIZED;
            }
            return line.length() == 0 ? null : line.toString();
          }
        }
        int start = position;
        while (position < limit && buffer[position] != '\n') {
          position++;
        }
        if (!oversized) {
          int count = position - start;
          if (line.length() + count > max + 1) {
            oversized = true;
            line.setLength(0);
          } else {
            line.append(buffer, start, count);
          }
        }
        if (position < limit) {
          position++; // the newline
          if (oversized) {
            return OVERSIZED;
          }
          int end = line.length();
          if (end > 0 && line.charAt(end - 1) == '\r') {
            line.setLength(end - 1);
          }
          if (line.length() > max) {
            return OVERSIZED;
          }
          return line.toString();
        }
      }
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /** The single session's transport: writes each message as one line. */
  private final class LineTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> write(message));
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public void close() {
      // The streams belong to the process; serve() returns at end of input.
    }
  }
}
