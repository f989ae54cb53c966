package dev.mcpfusion.core.modern;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.McpJson;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The stateless 2026-07-28 protocol (the SDK's {@code modern} API) for a {@link FusionServer}: the
 * same registry, pipeline and edge as the classic era, so a {@code tools/call} answers with the
 * same content, {@code structuredContent}, {@code isError} and {@code mcpfusion/*} {@code _meta},
 * and {@code tools/list} lists the same tools.
 *
 * <p>The SDK does not negotiate between eras, so every transport routes each message with
 * {@link #isModernRequest(Map)} (the routing rule) and hands modern requests to {@link #handle}.
 *
 * <p>Thread-safe; build one per {@code FusionServer} ({@link #of}). Creating it is cheap: the SDK's
 * modern server (with its tool conversion, schema validator and Jackson mapper) is built on the
 * first request that needs it, once, so a process that only ever speaks the classic era — every
 * 2025 client — never pays for it at start-up.
 */
public final class ModernEra {
  private static final Logger LOG = LoggerFactory.getLogger(ModernEra.class);

  /** The protocol version this era speaks. */
  public static final String PROTOCOL_VERSION = McpSchema.LATEST_PROTOCOL_VERSION;

  /** The {@code params._meta} key every 2026-07-28 request carries. */
  public static final String META_PROTOCOL_VERSION = McpSchema.MetaKeys.PROTOCOL_VERSION;

  /** The only request a 2026-07-28 client sends that has no classic counterpart. */
  public static final String METHOD_DISCOVER = McpSchema.METHOD_SERVER_DISCOVER;

  private static final List<String> SUPPORTED = List.of(PROTOCOL_VERSION);

  private final FusionServer fusion;
  private final McpJsonMapper mapper;
  private volatile McpServer server;

  private ModernEra(FusionServer fusion) {
    this.fusion = fusion;
    this.mapper = fusion.jsonMapper();
  }

  private static McpServer build(FusionServer fusion, McpJsonMapper mapper) {
    FusionToolRepository repository = new FusionToolRepository(fusion, mapper);
    DeferringSchemaValidator validator = new DeferringSchemaValidator(repository.inputSchemas(),
        new DefaultJsonSchemaValidator(McpJson.newJacksonMapper()));
    return McpServer.builder()
        .serverInfo(McpSchema.Implementation.builder(fusion.name(), fusion.version()).build())
        .supportedVersions(SUPPORTED)
        .jsonMapper(mapper)
        // No tool of ours asks for input (no MRTR), so nothing is ever sealed: a per-process key is
        // right, and an explicit one keeps the SDK from warning about it on every start.
        .requestStateCodec(HmacRequestStateCodec.builder().key(randomKey()).jsonMapper(mapper).build())
        .feature(ToolsFeature.ofSync(repository, mapper, validator, 0L, McpSchema.CacheScope.PRIVATE))
        .build();
  }

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }

  /** The modern era of {@code fusion}: its registry and pipeline behind the SDK's modern server. */
  public static ModernEra of(FusionServer fusion) {
    return new ModernEra(Objects.requireNonNull(fusion, "fusion"));
  }

  /**
   * The routing rule: a JSON-RPC request (a parsed object with a {@code method} and an
   * {@code id}) is 2026-07-28 when its {@code params._meta} carries
   * {@code io.modelcontextprotocol/protocolVersion} (every modern request does; no classic one
   * does) or its method is {@code server/discover}. Everything else belongs to the classic session.
   */
  public static boolean isModernRequest(Map<?, ?> message) {
    if (message == null || !(message.get("method") instanceof String method)
        || !message.containsKey("id")) {
      return false;
    }
    if (METHOD_DISCOVER.equals(method)) {
      return true;
    }
    return message.get("params") instanceof Map<?, ?> params
        && params.get("_meta") instanceof Map<?, ?> meta
        && meta.containsKey(META_PROTOCOL_VERSION);
  }

  /** The {@code requestId} a {@code notifications/cancelled} names, else empty. */
  public static Optional<Object> cancelledRequestId(Map<?, ?> message) {
    if (message != null && McpSchema.METHOD_NOTIFICATION_CANCELLED.equals(message.get("method"))
        && !message.containsKey("id") && message.get("params") instanceof Map<?, ?> params
        && params.get("requestId") != null) {
      return Optional.of(params.get("requestId"));
    }
    return Optional.empty();
  }

  /**
   * The SDK's modern server (the request manager the SDK's modern transports take), built on the
   * first call; every caller gets the same one.
   */
  public McpServer server() {
    McpServer built = server;
    if (built == null) {
      synchronized (this) {
        built = server;
        if (built == null) {
          try {
            built = build(fusion, mapper);
          } catch (RuntimeException | Error e) {
            // Once eager, this failed the whole start; now only modern requests fail (-32603).
            LOG.error("Could not build the {} server; its requests fail until it can be built",
                PROTOCOL_VERSION, e);
            throw e;
          }
          server = built;
        }
      }
    }
    return built;
  }

  /** Whether {@link #server()} has been built yet (for tests of the start-up contract). */
  boolean started() {
    return server != null;
  }

  /**
   * Answers one 2026-07-28 request: the framework's edge first ({@code tools/call} of an unknown
   * tool or with malformed params, in the classic era's words, once the protocol version is one
   * this server speaks), then the SDK's modern server. Runs off the caller's thread, except that
   * the first request that reaches the modern server builds it on the caller's thread (once), so
   * a burst of first requests is dispatched one by one, as it arrives, not all at once after the
   * build.
   *
   * @param line the request's JSON text, exactly as received
   * @return the messages to send back, in order (for stdio: one line each); the last is the
   *     response
   */
  public Flux<Object> handle(String line, McpTransportContext context) {
    JsonRpc.JSONRPCMessage message;
    try {
      message = JsonRpc.deserializeMessage(mapper, line);
    } catch (Exception e) {
      return Flux.just(JsonRpc.JSONRPCResponse.error(null, new JsonRpc.JSONRPCResponse.JSONRPCError(
          McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request")));
    }
    if (!(message instanceof JsonRpc.JSONRPCRequest request)) {
      return Flux.empty();
    }
    return handle(request, context);
  }

  /** As {@link #handle(String, McpTransportContext)} for a request the transport already parsed. */
  public Flux<Object> handle(JsonRpc.JSONRPCRequest request, McpTransportContext context) {
    return answer(request, context, true);
  }

  /**
   * Answers one 2026-07-28 request on the subscribing thread, for a transport that owns a thread
   * per request and blocks on the answer (HTTP: the container's request thread): the tool runs
   * right there, with no hand-off to another pool. A transport that reads many requests on one
   * thread (stdio) must use {@link #handle(JsonRpc.JSONRPCRequest, McpTransportContext)} instead,
   * or one slow call would hold up every call behind it.
   *
   * @return as {@link #handle(String, McpTransportContext)}
   */
  public Flux<Object> handleOnCaller(JsonRpc.JSONRPCRequest request, McpTransportContext context) {
    return answer(request, context, false);
  }

  /**
   * The request a transport parsed into a plain JSON object (a {@code Map} with {@code jsonrpc},
   * {@code method}, {@code id} and {@code params}), without parsing its text again.
   *
   * @throws IllegalArgumentException if {@code message} is not a request (no string
   *     {@code method}, or no {@code id})
   */
  public static JsonRpc.JSONRPCRequest request(Map<?, ?> message) {
    if (!(message.get("method") instanceof String method) || message.get("id") == null) {
      throw new IllegalArgumentException("not a JSON-RPC request: needs a string method and an id");
    }
    Object jsonrpc = message.get("jsonrpc");
    return new JsonRpc.JSONRPCRequest(jsonrpc instanceof String v ? v : "2.0",
        method, message.get("id"), message.get("params"));
  }

  /**
   * The edge, then the SDK's modern server. Off the caller's thread ({@code offCaller}), the SDK's
   * blocking entry runs inside one of our {@link Calls} threads, so a call takes exactly one
   * thread (the SDK's non-blocking entry would hop again, to Reactor's bounded-elastic pool).
   */
  private Flux<Object> answer(JsonRpc.JSONRPCRequest request, McpTransportContext context,
      boolean offCaller) {
    McpTransportContext transport = context == null ? McpTransportContext.EMPTY : context;
    Optional<JSONRPCResponse> answered = edge(request, headers(transport));
    if (answered.isPresent()) {
      return Flux.just(answered.get());
    }
    McpServer modern;
    try {
      modern = server();
    } catch (RuntimeException e) {
      return Flux.just(internalError(request));
    }
    Mono<McpTransportResponse> response = Mono.defer(() -> modern.handleBlocking(transport, request));
    if (offCaller) {
      response = response.subscribeOn(Calls.SCHEDULER);
    }
    return response
        .flatMapMany(ModernEra::messages)
        .onErrorResume(e -> Flux.just(internalError(request)));
  }

  private static JsonRpc.JSONRPCResponse internalError(JsonRpc.JSONRPCRequest request) {
    return JsonRpc.JSONRPCResponse.error(request.id(), new JsonRpc.JSONRPCResponse.JSONRPCError(
        McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error"));
  }

  /**
   * The framework's edge for a modern request: empty unless it is a {@code tools/call} with a
   * supported protocol version that the edge answers itself. {@code headers} (HTTP, lower-case
   * names) can carry the trace parent of an unknown tool's span.
   */
  public Optional<JSONRPCResponse> edge(JsonRpc.JSONRPCRequest request, Map<String, String> headers) {
    if (!McpSchema.METHOD_TOOLS_CALL.equals(request.method())
        || !(request.params() instanceof Map<?, ?> params)
        || !(params.get("_meta") instanceof Map<?, ?> meta)
        || !SUPPORTED.contains(meta.get(META_PROTOCOL_VERSION))) {
      return Optional.empty();
    }
    return fusion.intercept(new io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest(
        io.modelcontextprotocol.spec.McpSchema.JSONRPC_VERSION, request.method(), request.id(),
        params), headers);
  }

  private static Map<String, String> headers(McpTransportContext transport) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (transport.get(FusionServer.TRANSPORT_HEADERS) instanceof Map<?, ?> raw) {
      raw.forEach((k, v) -> {
        if (k != null && v != null) {
          headers.put(String.valueOf(k), String.valueOf(v));
        }
      });
    }
    return headers;
  }

  private static Flux<Object> messages(McpTransportResponse response) {
    if (response instanceof McpTransportResponse.Streaming streaming) {
      return streaming.messages().cast(Object.class);
    }
    if (response instanceof McpTransportResponse.Result result) {
      return Flux.just(result.response());
    }
    return Flux.just(((McpTransportResponse.Error) response).response());
  }

  /**
   * Where modern calls run, created with the first modern call (a holder class, so a classic-only
   * process starts no evictor thread). Not Reactor's shared bounded-elastic pool: it is capped at
   * 10 threads per core and the SDK's sync adapter takes a thread of its own per call, so 16
   * blocking calls in flight could starve each other there (measured: a CyclicBarrier(16) timed
   * out on 2 cores). Daemon threads, reclaimed after 60 s idle; the bound on calls in flight
   * belongs to the pipeline's concurrency gate, not to this pool.
   */
  private static final class Calls {
    static final reactor.core.scheduler.Scheduler SCHEDULER =
        Schedulers.newBoundedElastic(256, 100_000, "fusion-modern-call", 60, true);
  }
}
