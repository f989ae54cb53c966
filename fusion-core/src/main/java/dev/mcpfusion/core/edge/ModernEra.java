package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.server.McpJson;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stateless 2026-07-28 protocol behind the edge: the SDK's {@code modern} server answers what
 * the edge does not answer itself ({@code server/discover}, {@code tools/list}, unsupported
 * versions, unknown methods), with the same tools as the classic era.
 *
 * <p>The SDK server (its tool conversion, schema validator and mapper) is built on the first
 * request that needs it, so a process that only ever speaks the classic era — every 2025 client —
 * never pays for it. Every use of the SDK's types is in {@link Sdk}, loaded with that first
 * request: verifying this class loads none of them.
 */
public final class ModernEra {
  private static final Logger LOG = LoggerFactory.getLogger(ModernEra.class);

  /** The protocol versions this era answers. */
  static final List<String> SUPPORTED = List.of(ProtocolVersions.MODERN);

  private final String name;
  private final String version;
  private final ToolCalls tools;
  private final dev.mcpfusion.core.server.FeatureRegistry features;
  private volatile Sdk sdk;
  /** The extensions {@code server/discover} advertises (set before the server is built). */
  private final java.util.Set<String> extensions = new java.util.concurrent.CopyOnWriteArraySet<>();

  ModernEra(String name, String version, ToolCalls tools,
      dev.mcpfusion.core.server.FeatureRegistry features) {
    this.name = name;
    this.version = version;
    this.tools = tools;
    this.features = features;
  }

  /** Advertises {@code extension} in {@code server/discover} (called before the first request). */
  void extension(String extension) {
    extensions.add(extension);
  }

  /** The SDK's modern server, built on the first call; every caller gets the same one. */
  McpServer server() {
    return sdk().server;
  }

  private Sdk sdk() {
    Sdk built = sdk;
    if (built == null) {
      synchronized (this) {
        built = sdk;
        if (built == null) {
          try {
            McpJsonMapper mapper = McpJson.newMapper();
            built = new Sdk(Sdk.build(this, mapper), mapper, features.hasResources());
          } catch (RuntimeException | Error e) {
            // Only modern requests fail (-32603) while it cannot be built; the classic era serves on.
            LOG.error("Could not build the {} server; its requests fail until it can be built",
                ProtocolVersions.MODERN, e);
            throw e;
          }
          sdk = built;
        }
      }
    }
    return built;
  }

  /** Whether {@link #server()} has been built yet (for tests of the start-up contract). */
  boolean started() {
    return sdk != null;
  }

  /**
   * Answers one 2026-07-28 request with the SDK's modern server, on the calling thread: every
   * message it produces goes to {@code out} (the last one, the response, as the reply).
   */
  void answer(Message request, Sink out) {
    sdk().answer(request, out);
  }

  /** The built server and its mapper: the only code of the edge that touches the SDK's types. */
  private static final class Sdk {
    final McpServer server;
    final McpJsonMapper mapper;
    /** Whether {@code server/discover} says {@code resources.subscribe: true} (the edge listens). */
    final boolean subscribe;

    Sdk(McpServer server, McpJsonMapper mapper, boolean subscribe) {
      this.server = server;
      this.mapper = mapper;
      this.subscribe = subscribe;
    }

    static McpServer build(ModernEra era, McpJsonMapper mapper) {
      FusionToolRepository repository = new FusionToolRepository(era.tools, mapper);
      DeferringSchemaValidator validator = new DeferringSchemaValidator(repository.inputSchemas(),
          new DefaultJsonSchemaValidator(McpJson.newJacksonMapper()));
      McpServer.Builder builder = McpServer.builder();
      if (era.features.hasPrompts() || era.features.hasResources()) {
        builder.feature(new FeatureCapabilities(era.features));
      }
      if (!era.extensions.isEmpty()) {
        builder.feature(new ExtensionCapabilities(era.extensions));
      }
      return builder
          .serverInfo(McpSchema.Implementation.builder(era.name, era.version).build())
          .supportedVersions(SUPPORTED)
          .jsonMapper(mapper)
          // The edge answers every request that may ask the client and seals its own states
          // (dev.mcpfusion.wire.input), so this codec never seals anything: a per-process key is right, and an
          // explicit one keeps the SDK from warning about it on every start.
          .requestStateCodec(HmacRequestStateCodec.builder().key(randomKey()).jsonMapper(mapper).build())
          .feature(ToolsFeature.ofSync(repository, mapper, validator, 0L, McpSchema.CacheScope.PRIVATE))
          .build();
    }

    private static byte[] randomKey() {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      return key;
    }

    void answer(Message request, Sink out) {
      JsonRpc.JSONRPCRequest sdkRequest = new JsonRpc.JSONRPCRequest(JsonRpc.JSONRPC_VERSION,
          request.method(), request.id(), request.rawParams());
      List<Object> messages = server.handleBlocking(McpTransportContext.EMPTY, sdkRequest)
          .flatMapMany(response -> {
            if (response instanceof McpTransportResponse.Streaming streaming) {
              return streaming.messages().cast(Object.class);
            }
            if (response instanceof McpTransportResponse.Result result) {
              return reactor.core.publisher.Flux.just((Object) result.response());
            }
            return reactor.core.publisher.Flux.just((Object) ((McpTransportResponse.Error) response).response());
          })
          .collectList()
          .block();
      if (messages == null || messages.isEmpty()) {
        throw new IllegalStateException("the modern server sent no response to " + request.method());
      }
      for (int i = 0; i < messages.size() - 1; i++) {
        out.push(write(messages.get(i)));
      }
      Object last = messages.get(messages.size() - 1);
      if (last instanceof JsonRpc.JSONRPCResponse response && response.error() != null) {
        int code = response.error().code() == null ? dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR
          : response.error().code();
        if (code == dev.mcpfusion.wire.JsonRpc.INTERNAL_ERROR) {
          LOG.warn("The modern server answered request {} with an internal error: {}", request.id(),
              response.error().message());
        }
        Object data = response.error().data();
        Object tree = data == null ? null : mapper.convertValue(data, Object.class);
        out.reply(request.id(), code, Bodies.sdkError(request.id(), code, response.error().message(), tree));
        return;
      }
      byte[] reply = write(last);
      out.reply(request.id(), 0, subscribe && dev.mcpfusion.wire.JsonRpc.DISCOVER.equals(
          request.method()) ? FeatureCapabilities.subscribable(reply) : reply);
    }

    private byte[] write(Object message) {
      try {
        return mapper.writeValueAsBytes(message);
      } catch (java.io.IOException e) {
        // Caught by the edge, which answers INTERNAL_ERROR for the request and logs it.
        throw new java.io.UncheckedIOException("could not write a 2026-07-28 message", e);
      }
    }
  }

  /**
   * Why a 2026-07-28 request does not name its protocol version in {@code params._meta} (missing,
   * {@code null}, not a string), or {@code null} when it does.
   */
  static String unnamedVersion(Message message) {
    Map<?, ?> params = message.params();
    Object meta = params == null ? null : params.get("_meta");
    String problem;
    if (meta != null && !(meta instanceof Map<?, ?>)) {
      problem = "params._meta must be an object that names the protocol version";
    } else if (!(meta instanceof Map<?, ?> m) || !m.containsKey(Meta.PROTOCOL_VERSION)) {
      problem = "\"" + Meta.PROTOCOL_VERSION + "\" is missing from params._meta";
    } else if (m.get(Meta.PROTOCOL_VERSION) == null) {
      problem = "\"" + Meta.PROTOCOL_VERSION + "\" is null in params._meta";
    } else if (!(m.get(Meta.PROTOCOL_VERSION) instanceof String)) {
      problem = "\"" + Meta.PROTOCOL_VERSION + "\" in params._meta must be a string";
    } else {
      return null;
    }
    return "Invalid params: " + problem + ". Every " + ProtocolVersions.MODERN + " request names"
        + " its protocol version there (over HTTP, the MCP-Protocol-Version header as well); this"
        + " server speaks " + ProtocolVersions.MODERN + ".";
  }
}
