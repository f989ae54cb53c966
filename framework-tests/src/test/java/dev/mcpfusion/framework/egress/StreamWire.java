package dev.mcpfusion.framework.egress;

import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A raw JSON-RPC client over a byte stream (stdio, HTTP): the transport hands it everything the
 * server writes ({@link #received}), in arrival order; requests wait for their reply by id and
 * answer the server's requests as they come.
 */
abstract class StreamWire implements Wire {
  /** Where a transport failure is reported, so a waiting request fails at once. */
  static final String FAILURE = "transport failure";

  private final String name;
  private final boolean modern;
  private final List<Received> transcript = Collections.synchronizedList(new ArrayList<>());
  private final BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
  private final AtomicLong ids = new AtomicLong();

  StreamWire(String name, boolean modern) {
    this.name = name;
    this.modern = modern;
  }

  /** Writes one JSON-RPC message (a request, a notification or a response) to the server. */
  abstract void send(String json);

  /** Records something the server wrote; called by the transport's reading threads. */
  final void received(Received message) {
    transcript.add(message);
    inbox.add(message);
  }

  /** Reports that the transport broke: a waiting request fails with {@code why}. */
  final void failed(String why) {
    inbox.add(new Received(FAILURE, why, null));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean modern() {
    return modern;
  }

  @Override
  public List<Received> transcript() {
    synchronized (transcript) {
      return List.copyOf(transcript);
    }
  }

  /** The classic handshake: initialize (sampling and elicitation declared), initialized, debug logs. */
  final void initialize() {
    Exchange init = exchange(JsonRpc.INITIALIZE, Map.of(
        "protocolVersion", ProtocolVersions.LATEST_CLASSIC,
        "capabilities", Map.of("sampling", Map.of(), "elicitation", Map.of()),
        "clientInfo", Map.of("name", "egress-property", "version", "1")));
    if (!init.succeeded()) {
      throw new AssertionError(name + ": initialize failed: " + init.reply());
    }
    initialized(String.valueOf(((Map<?, ?>) init.replyTree().get("result")).get("protocolVersion")));
    send(Json.write(Map.of("jsonrpc", "2.0", "method", JsonRpc.INITIALIZED)));
    Exchange level = exchange(JsonRpc.LOGGING_SET_LEVEL, Map.of("level", "debug"));
    if (!level.succeeded()) {
      throw new AssertionError(name + ": logging/setLevel failed: " + level.reply());
    }
  }

  /** The version the classic handshake negotiated (HTTP sends it as a header from now on). */
  void initialized(String protocolVersion) {
  }

  @Override
  public Exchange request(String method, Map<String, Object> params, Map<String, Object> meta) {
    Map<String, Object> requestMeta = new LinkedHashMap<>();
    if (modern) {
      requestMeta.put(Meta.PROTOCOL_VERSION, ProtocolVersions.MODERN);
      requestMeta.put(Meta.CLIENT_CAPABILITIES, Map.of());
      requestMeta.put(Meta.LOG_LEVEL, "debug");
    }
    requestMeta.putAll(meta);
    Map<String, Object> withMeta = new LinkedHashMap<>(params);
    if (!requestMeta.isEmpty()) {
      withMeta.put("_meta", requestMeta);
    }
    return exchange(method, withMeta);
  }

  /** Sends {@code method} with {@code params} exactly as given and waits for its reply. */
  final Exchange exchange(String method, Map<String, Object> params) {
    long id = ids.incrementAndGet();
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    List<Received> got = new ArrayList<>();
    inbox.drainTo(got); // what arrived since the last exchange is checked with this one
    for (Received early : got) {
      answerIfAsked(early);
    }
    send(Json.write(message));
    long deadline = System.nanoTime() + REPLY_TIMEOUT.toNanos();
    while (true) {
      Received r = next(deadline);
      if (r == null) {
        throw new AssertionError(name + ": no reply to " + method + " within " + REPLY_TIMEOUT
            + "; received meanwhile: " + got);
      }
      got.add(r);
      if (r.answers(id)) {
        return new Exchange(method, params, r, List.copyOf(got));
      }
      answerIfAsked(r);
    }
  }

  @Override
  public List<Received> await(Predicate<Received> wanted, Duration timeout) {
    List<Received> got = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Received r = next(deadline);
      if (r == null) {
        return got;
      }
      got.add(r);
      if (wanted.test(r)) {
        return got;
      }
      answerIfAsked(r);
    }
  }

  private Received next(long deadline) {
    try {
      Received r = inbox.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (r != null && FAILURE.equals(r.via())) {
        throw new AssertionError(name + ": " + r.raw());
      }
      return r;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(name + ": interrupted while waiting for the server", e);
    }
  }

  /** Answers a server request: sampling with {@link #SAMPLED}, elicitation by accepting {@link #ELICITED}. */
  private void answerIfAsked(Received r) {
    if (!r.isServerRequest()) {
      return;
    }
    Map<String, Object> request = r.tree();
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", "2.0");
    response.put("id", request.get("id"));
    Object method = request.get("method");
    if (JsonRpc.SAMPLING_CREATE_MESSAGE.equals(method)) {
      response.put("result", SAMPLED);
    } else if (JsonRpc.ELICITATION_CREATE.equals(method)) {
      response.put("result", Map.of("action", "accept", "content", ELICITED));
    } else {
      response.put("error", Map.of("code", JsonRpc.METHOD_NOT_FOUND,
          "message", "The egress test client does not answer " + method));
    }
    send(Json.write(response));
  }
}
