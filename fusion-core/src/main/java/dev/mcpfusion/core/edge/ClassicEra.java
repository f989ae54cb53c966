package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.Results;
import dev.mcpfusion.core.wire.JsonRpc;
import dev.mcpfusion.core.wire.Reply;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 2024-11-05 … 2025-11-25 protocol behind the edge: the SDK's classic server answers what the
 * edge does not answer itself ({@code initialize}, {@code tools/list}, {@code logging/setLevel},
 * notifications, the client's responses), one SDK session per {@link EdgeSession}. The SDK server
 * is built on the first classic session, so a process that only ever speaks 2026-07-28 never
 * builds it.
 *
 * <p>Every message an SDK session sends is written by the edge: an error the SDK built is cleaned
 * of exception text, and a message that cannot be written becomes {@code INTERNAL_ERROR} for its id.
 */
final class ClassicEra implements McpServerTransportProvider {
  private static final Logger LOG = LoggerFactory.getLogger(ClassicEra.class);

  private final String name;
  private final String version;
  private final ToolCalls tools;
  private final dev.mcpfusion.core.server.FeatureRegistry features;
  private final JsonMapper jackson;
  private final McpJsonMapper mapper;
  private final Set<EdgeSession> sessions = ConcurrentHashMap.newKeySet();
  private volatile McpServerSession.Factory factory;
  private volatile McpSyncServer server;

  ClassicEra(String name, String version, ToolCalls tools,
      dev.mcpfusion.core.server.FeatureRegistry features, JsonMapper jackson, McpJsonMapper mapper) {
    this.name = name;
    this.version = version;
    this.tools = tools;
    this.features = features;
    this.jackson = jackson;
    this.mapper = mapper;
  }

  /** Creates the SDK session of {@code session}, building the SDK server first if needed. */
  McpServerSession open(EdgeSession session) {
    if (server == null) {
      synchronized (this) {
        if (server == null) {
          server = build();
        }
      }
    }
    sessions.add(session);
    return factory.create(new SessionTransport(session));
  }

  /** The saved form of an initialised session ({@link Edge#sessionState}). */
  SessionState state(EdgeSession session) {
    String version = session.protocolVersion();
    if (version == null) {
      throw new IllegalStateException("Session " + session.id() + " has not been initialised");
    }
    Map<?, ?> info = session.clientInfo();
    return new SessionState(session.id(), version, jackson.writeValueAsString(session.clientCapabilities()),
        info == null ? null : jackson.writeValueAsString(info), session.logLevel().wire());
  }

  /** A session another process initialised, opened here from its saved form. */
  EdgeSession resume(Sink out, SessionState state, dev.mcpfusion.core.trace.FusionMeter meter) {
    EdgeSession session = new EdgeSession(out, this, meter, state.id());
    LogLevel level = LogLevel.fromWire(state.logLevel());
    session.resume(state.protocolVersion(), jackson.readValue(state.clientCapabilities(), Map.class),
        state.clientInfo() == null ? null : jackson.readValue(state.clientInfo(), Map.class),
        level == null ? LogLevel.INFO : level);
    return session;
  }

  /**
   * Initialises the SDK session of a resumed session as its {@code initialize} and
   * {@code notifications/initialized} did in the process that received them, so the SDK answers
   * its requests at once.
   */
  void initialized(McpServerSession sdk, EdgeSession session) {
    Map<?, ?> info = session.clientInfo();
    sdk.init(mapper.convertValue(session.clientCapabilities(), McpSchema.ClientCapabilities.class),
        info == null ? null : mapper.convertValue(info, McpSchema.Implementation.class));
    sdk.handle(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, JsonRpc.INITIALIZED, null))
        .subscribe(null, e -> LOG.warn("Session {}: resuming its SDK session failed", session.id(), e));
  }

  void closed(EdgeSession session) {
    sessions.remove(session);
  }

  private McpSyncServer build() {
    List<McpServerFeatures.SyncToolSpecification> specifications = new ArrayList<>();
    for (McpSchema.Tool tool : tools.registry().mcpTools()) {
      ExposedTool exposed = tools.find(tool.name());
      // The edge answers every tools/call itself; the SDK still needs the tools for tools/list,
      // and should a call ever reach it, it runs the same handler.
      specifications.add(new McpServerFeatures.SyncToolSpecification(tool, (exchange, request) -> {
        Reply reply = tools.call(exposed, request.arguments(), RequestContext.of(null,
            request.meta(), exchange == null ? null : exchange.sessionId(), null));
        return Results.toMcp(reply);
      }));
    }
    return McpServer.sync(this)
        .serverInfo(name, version)
        .capabilities(capabilities())
        .validateToolInputs(false)
        .jsonMapper(mapper)
        .jsonSchemaValidator(new DefaultJsonSchemaValidator(jackson))
        .tools(specifications)
        .build();
  }

  /**
   * What {@code initialize} advertises: tools, logging, and — when the server has them, answered by the
   * edge — prompts, resources with subscriptions, and completions.
   */
  private McpSchema.ServerCapabilities capabilities() {
    McpSchema.ServerCapabilities.Builder builder =
        McpSchema.ServerCapabilities.builder().tools(false).logging();
    if (features.hasPrompts()) {
      builder.prompts(false);
    }
    if (features.hasResources()) {
      builder.resources(true, false);
    }
    if (features.hasPrompts() || features.hasResources()) {
      builder.completions();
    }
    return builder.build();
  }

  /** Closes the SDK server, if it was built. */
  void shutdown() {
    McpSyncServer s = server;
    if (s != null) {
      s.closeGracefully();
    }
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    this.factory = sessionFactory;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    List<Mono<Void>> sends = new ArrayList<>();
    for (EdgeSession session : sessions) {
      McpServerSession sdk = session.sdkIfOpen();
      if (sdk != null) {
        sends.add(sdk.sendNotification(method, params).onErrorResume(e -> {
          LOG.debug("Could not notify session {}", session.id(), e);
          return Mono.empty();
        }));
      }
    }
    return Flux.merge(sends).then();
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.empty();
  }

  /** Writes what one SDK session sends. */
  private final class SessionTransport implements McpServerTransport {
    private final EdgeSession session;

    SessionTransport(EdgeSession session) {
      this.session = session;
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> send(message));
    }

    private void send(McpSchema.JSONRPCMessage message) {
      if (message instanceof McpSchema.JSONRPCResponse response) {
        Object id = response.id();
        if (response.error() != null) {
          McpSchema.JSONRPCResponse.JSONRPCError error = response.error();
          int code = error.code() == null ? JsonRpc.INTERNAL_ERROR : error.code();
          byte[] body = cleanError(id, code, error);
          session.replying(id, code, body);
          session.out().reply(id, code, body);
          return;
        }
        Object result = response.result();
        session.answered(id, result instanceof McpSchema.InitializeResult init ? init.protocolVersion()
            : result instanceof Map<?, ?> map ? map.get("protocolVersion") : null);
        byte[] bytes;
        try {
          bytes = mapper.writeValueAsBytes(response);
        } catch (Exception | StackOverflowError e) {
          String incident = ErrorReplies.newIncidentId();
          LOG.error("Could not write the answer to request {} (incident {})", id, incident, e);
          bytes = Bodies.error(id, JsonRpc.INTERNAL_ERROR, "Internal error (incident " + incident + ").");
          session.replying(id, JsonRpc.INTERNAL_ERROR, bytes);
          session.out().reply(id, JsonRpc.INTERNAL_ERROR, bytes);
          return;
        }
        session.replying(id, 0, bytes);
        session.out().reply(id, 0, bytes);
        return;
      }
      try {
        session.out().push(mapper.writeValueAsBytes(message));
      } catch (Exception e) {
        LOG.error("Could not write a message the server sent on its own; dropped it", e);
      }
    }

    private byte[] cleanError(Object id, int code, McpSchema.JSONRPCResponse.JSONRPCError error) {
      if (code == JsonRpc.INTERNAL_ERROR) {
        LOG.warn("Session {}: the SDK answered request {} with an internal error: {}", session.id(), id,
            error.message());
      }
      Object data = null;
      if (error.data() != null) {
        try {
          data = mapper.convertValue(error.data(), Object.class);
        } catch (RuntimeException unwritable) {
          data = null;
        }
      }
      return Bodies.sdkError(id, code, error.message(), data);
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
      // The connection belongs to its transport; the edge session closes with it.
    }
  }
}
