package dev.mcpfusion.testing;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.testing.internal.InProcessWire;
import java.time.Duration;
import dev.mcpfusion.testing.internal.JsonTrees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The client end of a {@link FusionTester}: the options it gathers until the first call, the
 * server and in-memory wire it then builds (with the {@code initialize} handshake of a 2025 era),
 * the JSON-RPC requests it writes, and its answers to the server's own requests.
 */
final class TesterSession {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final FusionServer.Builder builder;
  private final Object lock = new Object();
  private final AtomicLong ids = new AtomicLong();
  private final Map<String, String> headers = new LinkedHashMap<>();
  private String protocolVersion = ProtocolVersions.LATEST_CLASSIC;
  private volatile Caller caller = Caller.local();
  private String separator;
  private Function<Map<String, Object>, Map<String, Object>> samplingAnswer;
  private Function<Map<String, Object>, Map<String, Object>> elicitationAnswer;
  private Function<Map<String, Object>, Map<String, Object>> rootsAnswer;
  private volatile Started started;
  private volatile boolean closed;

  private record Started(FusionServer server, InProcessWire wire) {}

  TesterSession(FusionServer.Builder builder) {
    this.builder = builder;
  }

  /** Applies an option; only before the first call, as a started server cannot take it. */
  void configure(Consumer<FusionServer.Builder> option) {
    synchronized (lock) {
      if (started != null || closed) {
        throw new IllegalStateException(
            "Set FusionTester options before the first call; this tester is already " + (closed ? "closed" : "started"));
      }
      option.accept(builder);
    }
  }

  void header(String name, String value) {
    configure(b -> headers.put(name, value));
  }

  /** Who calls from now on: unlike the other options, it may change between calls. */
  void caller(Caller who) {
    synchronized (lock) {
      caller = who;
      if (started != null) {
        started.wire().caller(who);
      }
    }
  }

  void protocolVersion(String version) {
    configure(b -> this.protocolVersion = version);
  }

  void answerSampling(Function<Map<String, Object>, Map<String, Object>> answer) {
    configure(b -> samplingAnswer = answer);
  }

  void answerElicitation(Function<Map<String, Object>, Map<String, Object>> answer) {
    configure(b -> elicitationAnswer = answer);
  }

  void answerRoots(Function<Map<String, Object>, Map<String, Object>> answer) {
    configure(b -> rootsAnswer = answer);
  }

  /**
   * Sends request {@code method} (the era's {@code _meta} added) and, in the 2026-07-28 era, answers
   * every input-required result as the client would: each of its {@code inputRequests} with the
   * tester's answer for that method, retried with the answers and the {@code requestState}, until
   * the server completes the request. Returns the last reply text.
   *
   * @throws IllegalStateException when the server still asks after {@value #MAX_INPUT_ROUNDS} rounds
   */
  String sendAnswering(String method, Map<String, Object> params) {
    String reply = send(method, params);
    if (!ProtocolVersions.MODERN.equals(protocolVersion)) {
      return reply;
    }
    for (int round = 1; ; round++) {
      if (!(Json.parse(reply) instanceof Map<?, ?> m) || !(m.get("result") instanceof Map<?, ?> result)
          || !"input_required".equals(result.get("resultType"))) {
        return reply;
      }
      if (round > MAX_INPUT_ROUNDS) {
        throw new IllegalStateException("The server still asked for input after " + MAX_INPUT_ROUNDS
            + " rounds of " + method + "; last reply: " + reply);
      }
      Map<String, Object> responses = new LinkedHashMap<>();
      if (result.get("inputRequests") instanceof Map<?, ?> requests) {
        requests.forEach((key, request) -> {
          Map<String, Object> r = ServerMessages.plain(request);
          responses.put(String.valueOf(key), inputAnswer(String.valueOf(r.get("method")),
              ServerMessages.plain(r.get("params"))));
        });
      }
      Map<String, Object> retry = new LinkedHashMap<>(params);
      retry.put("inputResponses", responses);
      retry.remove("requestState");
      if (result.get("requestState") instanceof String state) {
        retry.put("requestState", state);
      }
      reply = request(method, retry);
    }
  }

  /** How many input-required results in a row the tester answers before it gives up. */
  static final int MAX_INPUT_ROUNDS = 16;

  private Map<String, Object> inputAnswer(String method, Map<String, Object> params) {
    Function<Map<String, Object>, Map<String, Object>> answer = answerFor(method);
    if (answer == null) {
      throw new IllegalStateException("The server asked " + method + " but this tester has no answer"
          + " for it; configure one (answerSampling, answerElicitation, roots).");
    }
    return answer.apply(params);
  }

  private Function<Map<String, Object>, Map<String, Object>> answerFor(String method) {
    return switch (method) {
      case "sampling/createMessage" -> samplingAnswer;
      case "elicitation/create" -> elicitationAnswer;
      case "roots/list" -> rootsAnswer;
      default -> null;
    };
  }

  /** The server under test, built (and the session opened) on first use. */
  FusionServer server() {
    return start().server();
  }

  /** The wire to the server, opened on first use. */
  InProcessWire wire() {
    return start().wire();
  }

  /** Sends request {@code method} with {@code params} as given and returns the reply text. */
  String request(String method, Map<String, Object> params) {
    Started s = start();
    long id = ids.incrementAndGet();
    return s.wire().request(id, Json.write(message(id, method, params)));
  }

  /** Sends request {@code method} without waiting; {@code id} is the request id it carries. */
  CompletableFuture<String> requestAsync(long id, String method, Map<String, Object> params) {
    return start().wire().requestAsync(id, Json.write(message(id, method, params)));
  }

  /** The answer to every {@code roots/list}: {@code roots} on the wire. */
  static Function<Map<String, Object>, Map<String, Object>> rootsAnswer(
      dev.mcpfusion.core.Root... roots) {
    List<Map<String, Object>> wire = new ArrayList<>();
    for (dev.mcpfusion.core.Root root : roots) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("uri", root.uri());
      if (root.name() != null) {
        r.put("name", root.name());
      }
      wire.add(r);
    }
    List<Map<String, Object>> answer = List.copyOf(wire);
    return params -> Map.of("roots", answer);
  }

  /** Opens a {@code subscriptions/listen} stream for {@code uris}: acknowledged when it returns. */
  PendingCall listen(Map<String, ?> meta, List<String> uris) {
    start();
    long id = nextId();
    Map<String, Object> params = new LinkedHashMap<>();
    Map<String, Object> requestMeta = meta(meta);
    if (requestMeta != null) {
      params.put("_meta", requestMeta);
    }
    params.put("notifications", Map.of("resourceSubscriptions", List.copyOf(uris)));
    return new PendingCall(this, id, start().wire().requestOpen(id,
        Json.write(message(id, JsonRpc.SUBSCRIPTIONS_LISTEN, params))));
  }

  long nextId() {
    return ids.incrementAndGet();
  }

  /** Sends request {@code method} with the era's {@code _meta} added; a caller's own keys win. */
  String send(String method, Map<String, Object> params) {
    start();
    Map<String, ?> own = params.get("_meta") instanceof Map<?, ?> m ? ServerMessages.plain(m) : null;
    Map<String, Object> requestMeta = meta(own);
    if (requestMeta != null) {
      params.put("_meta", requestMeta);
    }
    return request(method, params);
  }

  /** The request's {@code _meta}: the caller's, plus the protocol version in the 2026-07-28 era. */
  Map<String, Object> meta(Map<String, ?> meta) {
    if (!ProtocolVersions.MODERN.equals(protocolVersion)) {
      return meta == null ? null : new LinkedHashMap<>(meta);
    }
    Map<String, Object> merged = new LinkedHashMap<>();
    merged.put(Meta.PROTOCOL_VERSION, ProtocolVersions.MODERN);
    merged.put(Meta.CLIENT_CAPABILITIES, capabilities());
    if (meta != null) {
      merged.putAll(meta);
    }
    return merged;
  }

  /** Closes the wire (and with it the server's session). Idempotent. */
  void close() {
    Started s;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      s = started;
    }
    if (s != null) {
      s.wire().close();
    }
  }

  private static Map<String, Object> message(long id, String method, Map<String, Object> params) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    return message;
  }

  private Started start() {
    Started s = started;
    if (s != null && !closed) {
      return s;
    }
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("This FusionTester is closed");
      }
      if (started == null) {
        started = connect();
      }
      return started;
    }
  }

  private Started connect() {
    FusionServer server = builder.build();
    InProcessWire wire = new InProcessWire(server.edge(), Map.copyOf(headers), REQUEST_TIMEOUT);
    wire.clientAnswers(this::answer);
    wire.caller(caller);
    if (!ProtocolVersions.MODERN.equals(protocolVersion)) {
      try {
        Map<?, ?> init = (Map<?, ?>) Json.parse(wire.request(0L, Json.write(Map.of("jsonrpc", "2.0",
            "id", 0L, "method", JsonRpc.INITIALIZE, "params", Map.of(
                "protocolVersion", protocolVersion,
                "capabilities", capabilities(),
                "clientInfo", Map.of("name", "fusion-tester", "version", "0.0.0"))))));
        if (!(init.get("result") instanceof Map<?, ?>)) {
          throw new IllegalStateException("initialize failed: " + init.get("error"));
        }
        wire.notify(Json.write(Map.of("jsonrpc", "2.0", "method", JsonRpc.INITIALIZED)));
      } catch (RuntimeException e) {
        wire.close();
        throw e;
      }
    }
    return new Started(server, wire);
  }

  /** The client capabilities the tester declares: those it has answers for. */
  private Map<String, Object> capabilities() {
    Map<String, Object> capabilities = new LinkedHashMap<>();
    if (samplingAnswer != null) {
      capabilities.put("sampling", Map.of());
    }
    if (elicitationAnswer != null) {
      capabilities.put("elicitation", Map.of());
    }
    if (rootsAnswer != null) {
      capabilities.put("roots", Map.of());
    }
    return capabilities;
  }

  /** The client's response (JSON text) to one server request, or {@code null} for a non-request. */
  private String answer(String json) {
    if (!(Json.parse(json) instanceof Map<?, ?> m) || !(m.get("method") instanceof String method)
        || !m.containsKey("id")) {
      return null;
    }
    Function<Map<String, Object>, Map<String, Object>> answer = answerFor(method);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", "2.0");
    response.put("id", m.get("id"));
    if (answer == null) {
      response.put("error", Map.of("code", -32601, "message", "The tester has no answer to " + method));
      return Json.write(response);
    }
    try {
      response.put("result", answer.apply(ServerMessages.plain(m.get("params"))));
    } catch (RuntimeException e) {
      response.put("error", Map.of("code", -32603, "message", String.valueOf(e.getMessage())));
    }
    return Json.write(response);
  }


  /** The {@code tools/call} params: name, arguments and the era's {@code _meta} (the caller's keys winning). */
  Map<String, Object> callParams(String toolName, Map<String, ?> arguments, Map<String, ?> meta) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", toolName);
    params.put("arguments", arguments == null ? Map.of() : arguments);
    Map<String, Object> requestMeta = meta(meta);
    if (requestMeta != null) {
      params.put("_meta", requestMeta);
    }
    return params;
  }

  /** Every tool of {@code tools/list}, following {@code nextCursor} through all pages. */
  List<ToolInfo> listTools() {
    start();
    List<ToolInfo> tools = new ArrayList<>();
    String cursor = null;
    do {
      Map<String, Object> params = new LinkedHashMap<>();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      Map<?, ?> page = result(JsonRpc.TOOLS_LIST, params);
      if (page.get("tools") instanceof List<?> items) {
        for (Object tool : items) {
          tools.add(ToolInfo.of(JsonTrees.stringKeys((Map<?, ?>) tool)));
        }
      }
      cursor = page.get("nextCursor") instanceof String next ? next : null;
    } while (cursor != null);
    return List.copyOf(tools);
  }

  /** Sends a list request and returns its {@code member}, each item a plain JSON tree. */
  List<Map<String, Object>> listOf(String method, String member) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (result(method, new LinkedHashMap<>()).get(member) instanceof List<?> list) {
      for (Object item : list) {
        out.add(JsonTrees.stringKeys((Map<?, ?>) item));
      }
    }
    return out;
  }

  /** Sends {@code completion/complete} for {@code argument} of {@code ref}; the reply text. */
  String complete(Map<String, Object> ref, String argument, String value, Map<String, String> resolved) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("ref", ref);
    params.put("argument", Map.of("name", argument, "value", value));
    if (resolved != null) {
      params.put("context", Map.of("arguments", new LinkedHashMap<>(resolved)));
    }
    return send("completion/complete", params);
  }

  /**
   * Sends request {@code method} (the era's {@code _meta} added) and returns its {@code result};
   * an error reply throws, naming the method and the reply.
   */
  Map<?, ?> result(String method, Map<String, Object> params) {
    String reply = send(method, params);
    if (!(Json.parse(reply) instanceof Map<?, ?> m) || !(m.get("result") instanceof Map<?, ?> result)) {
      throw new IllegalStateException(method + " failed: " + reply);
    }
    return result;
  }

  /** Sets the FLAT separator on the builder and remembers it for {@link #flatName}. */
  void separator(String separator) {
    configure(b -> {
      b.separator(separator);
      this.separator = separator;
    });
  }

  /** The FLAT tool name of {@code router}'s {@code action}. */
  String flatName(String router, String action) {
    String known = server().toolName(router, action);
    if (known != null) {
      return known;
    }
    // No such action: the name it would have, so the call meets the server's UNKNOWN_TOOL reply.
    if (separator != null) {
      return router + separator + action;
    }
    return router + "_" + action;
  }
}
