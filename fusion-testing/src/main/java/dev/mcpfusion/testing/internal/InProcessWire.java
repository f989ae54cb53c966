package dev.mcpfusion.testing.internal;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Sink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The tester's transport: JSON text handed to the server's production {@link Edge}, exactly as
 * stdio or HTTP hands it the bytes of a message, and the edge's replies collected by id. Every
 * message in both directions is recorded as text. A call runs on the thread that sends it, so
 * calls from several threads run at once.
 */
public final class InProcessWire implements Sink, AutoCloseable {
  private final Edge edge;
  private volatile Inbound inbound;
  private final EdgeSession session;
  private final Duration timeout;
  private final List<String> serverToClient = Collections.synchronizedList(new ArrayList<>());
  private final List<String> clientToServer = Collections.synchronizedList(new ArrayList<>());
  private final Map<Object, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile java.util.function.Function<String, String> clientAnswers;

  /**
   * A wire into {@code edge}; {@code headers} reach every request's context as an HTTP
   * transport's would.
   */
  public InProcessWire(Edge edge, Map<String, String> headers, Duration timeout) {
    this.edge = Objects.requireNonNull(edge, "edge");
    this.inbound = Inbound.of("in-process", headers);
    this.session = edge.openSession(this);
    this.timeout = timeout;
  }

  /** Who sends the messages from now on, as an HTTP transport's authenticator would say. */
  public void caller(Caller caller) {
    inbound = inbound.withCaller(caller);
  }

  /**
   * Sends a request (JSON text with the given {@code id}) and waits for its reply text.
   *
   * @throws IllegalStateException when no reply arrives in time (the server broke the
   *     one-reply-per-request rule), or the wire is closed
   */
  public String request(Object id, String json) {
    if (closed.get()) {
      throw new IllegalStateException("The in-process wire is closed");
    }
    CompletableFuture<String> reply = new CompletableFuture<>();
    Object key = key(id);
    if (waiting.putIfAbsent(key, reply) != null) {
      throw new IllegalStateException("A request with id " + id + " is already waiting");
    }
    try {
      send(json);
      return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("No reply to request " + id + " within " + timeout
          + "; the server must answer every request", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("The reply to request " + id + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for request " + id, e);
    } finally {
      waiting.remove(key);
    }
  }

  /**
   * Sends a request without waiting: the call runs on a new thread, and the future completes with
   * the reply text (never, if the server sends none — a cancelled call).
   */
  public CompletableFuture<String> requestAsync(Object id, String json) {
    CompletableFuture<String> reply = awaiting(id);
    Thread caller = new Thread(() -> {
      try {
        send(json);
      } catch (RuntimeException e) {
        reply.completeExceptionally(e);
      }
    }, "fusion-tester-call-" + id);
    caller.setDaemon(true);
    caller.start();
    return reply;
  }

  /**
   * Sends a request on this thread, whose dispatch returns before its reply (a listen stream
   * served on this connection: its acknowledgement is written by then), and returns the reply to
   * come.
   */
  public CompletableFuture<String> requestOpen(Object id, String json) {
    CompletableFuture<String> reply = awaiting(id);
    try {
      send(json);
    } catch (RuntimeException e) {
      reply.completeExceptionally(e);
    }
    return reply;
  }

  private CompletableFuture<String> awaiting(Object id) {
    if (closed.get()) {
      throw new IllegalStateException("The in-process wire is closed");
    }
    CompletableFuture<String> reply = new CompletableFuture<>();
    Object key = key(id);
    if (waiting.putIfAbsent(key, reply) != null) {
      throw new IllegalStateException("A request with id " + id + " is already waiting");
    }
    reply.whenComplete((text, failure) -> waiting.remove(key, reply));
    return reply;
  }

  /**
   * How the client answers the server's requests (sampling, elicitation): given a request's JSON
   * text, the response's JSON text. Without one, the server's requests go unanswered.
   */
  public void clientAnswers(java.util.function.Function<String, String> answers) {
    this.clientAnswers = answers;
  }

  /** Sends a notification (JSON text); nothing comes back. */
  public void notify(String json) {
    send(json);
  }

  private void send(String json) {
    clientToServer.add(json);
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    edge.dispatch(edge.read(bytes), inbound, session, this);
  }

  @Override
  public void reply(Object id, int errorCode, byte[] json) {
    String text = new String(json, StandardCharsets.UTF_8);
    serverToClient.add(text);
    CompletableFuture<String> waiter = id == null ? null : waiting.get(key(id));
    if (waiter != null) {
      waiter.complete(text);
    }
  }

  @Override
  public void push(byte[] json) {
    String text = new String(json, StandardCharsets.UTF_8);
    serverToClient.add(text);
    java.util.function.Function<String, String> answers = clientAnswers;
    if (answers != null && !closed.get()) {
      // Answered on the server's thread, as a client's reply would arrive: the server registered
      // the request before sending it, so the answer finds it waiting.
      String response = answers.apply(text);
      if (response != null) {
        send(response);
      }
    }
  }

  /** The JSON text of every message the server sent, in order (a snapshot). */
  public List<String> serverToClient() {
    synchronized (serverToClient) {
      return List.copyOf(serverToClient);
    }
  }

  /** The JSON text of every message the client sent, in order (a snapshot). */
  public List<String> clientToServer() {
    synchronized (clientToServer) {
      return List.copyOf(clientToServer);
    }
  }

  /** Closes the edge session. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      session.close();
    }
  }

  private static Object key(Object id) {
    return Edge.idKey(id);
  }
}
