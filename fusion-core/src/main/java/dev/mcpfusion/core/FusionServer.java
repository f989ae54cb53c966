package dev.mcpfusion.core;

import dev.mcpfusion.core.server.Edge;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.McpJson;
import dev.mcpfusion.core.server.Pipeline;
import dev.mcpfusion.core.server.Results;
import dev.mcpfusion.core.server.ServerConfig;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.modern.ModernEra;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.transport.StdioTransport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * An MCP server built from {@code @Router} classes: every call runs through one pipeline
 * (DESIGN §5) and speaks MCP through the official MCP Java SDK.
 *
 * <pre>{@code
 * FusionServer server = FusionServer.builder("billing", "1.0.0")
 *     .register(new BillingTools(store))
 *     .exposition(Exposition.GROUPED)
 *     .context(Tenant.class, request -> Tenant.from(request))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe once built. Transports put the request's HTTP headers under
 * {@link #TRANSPORT_HEADERS} and, when they know it, the negotiated protocol version under
 * {@link #TRANSPORT_PROTOCOL_VERSION} in the SDK's {@link McpTransportContext}; both reach the
 * {@link RequestContext} of every call.
 */
public final class FusionServer {
  /** Transport-context key of the request headers ({@code Map<String, String>} or {@code Map<String, List<String>>}). */
  public static final String TRANSPORT_HEADERS = "mcpfusion.headers";

  /** Transport-context key of the negotiated protocol version ({@code String}). */
  public static final String TRANSPORT_PROTOCOL_VERSION = "mcpfusion.protocolVersion";

  private static final Logger LOG = LoggerFactory.getLogger(FusionServer.class);

  /** How long {@link #serveStdio} lets calls in flight finish after the client closed stdin. */
  private static final Duration STDIO_DRAIN = Duration.ofSeconds(30);

  // The process has one stdout: once reserved, it belongs to the stdio channel for good.
  private static final Object STDOUT_LOCK = new Object();
  private static OutputStream reservedStdout;

  private final String name;
  private final String version;
  private final ToolRegistry registry;
  private final Pipeline pipeline;
  private final Edge edge;
  private final JsonMapper jackson;
  private final McpJsonMapper jsonMapper;

  private FusionServer(String name, String version, ToolRegistry registry, FusionTracer tracer) {
    this.name = name;
    this.version = version;
    this.registry = registry;
    this.pipeline = new Pipeline(registry, tracer);
    this.edge = new Edge(registry, tracer);
    this.jackson = McpJson.newJacksonMapper();
    this.jsonMapper = new JacksonMcpJsonMapper(jackson);
  }

  /** A builder for a server announcing itself as {@code name} {@code version}. */
  public static Builder builder(String name, String version) {
    return new Builder(name, version);
  }

  /** The server name. */
  public String name() {
    return name;
  }

  /** The server version. */
  public String version() {
    return version;
  }

  /** The exposition the tools were built for. */
  public Exposition exposition() {
    return registry.exposition();
  }

  /** The tools, exactly what {@code tools/list} returns. */
  public List<McpSchema.Tool> tools() {
    return registry.mcpTools();
  }

  /**
   * The framework's edge (DESIGN §6/§9): a response for a message the framework answers itself
   * ({@code tools/call} of an unknown tool: -32602 with the {@code UNKNOWN_TOOL} text; malformed
   * {@code tools/call} params: -32602), else empty. Every transport calls it first.
   */
  public Optional<McpSchema.JSONRPCResponse> intercept(McpSchema.JSONRPCMessage message) {
    return edge.intercept(message);
  }

  /**
   * As {@link #intercept(McpSchema.JSONRPCMessage)}, for transports with request headers (HTTP):
   * the headers can carry the W3C trace parent of an unknown tool's span (DESIGN §7).
   */
  public Optional<McpSchema.JSONRPCResponse> intercept(McpSchema.JSONRPCMessage message,
      Map<String, String> headers) {
    return edge.intercept(message, headers == null ? Map.of() : headers);
  }

  /**
   * Builds and starts the SDK (classic API) server on the transport provider; the provider must
   * call {@link #intercept} before handing a message to its session.
   */
  public McpSyncServer connect(McpServerTransportProvider transport) {
    List<McpServerFeatures.SyncToolSpecification> specifications = new ArrayList<>();
    for (McpSchema.Tool tool : registry.mcpTools()) {
      ExposedTool exposed = registry.tool(tool.name());
      specifications.add(new McpServerFeatures.SyncToolSpecification(tool,
          (exchange, request) -> handle(exposed, exchange, request)));
    }
    return McpServer.sync(transport)
        .serverInfo(name, version)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .validateToolInputs(false)
        .jsonMapper(jsonMapper)
        .jsonSchemaValidator(new DefaultJsonSchemaValidator(jackson))
        .tools(specifications)
        .build();
  }

  /**
   * Reserves the process's stdout for the MCP stdio channel and points {@code System.out} at
   * stderr, so a stray {@code println} or a JVM log line cannot corrupt the protocol. Call it first
   * thing in {@code main}, before any logging backend starts; calling it again does nothing.
   */
  public static void reserveStdout() {
    synchronized (STDOUT_LOCK) {
      if (reservedStdout == null) {
        System.out.flush();
        reservedStdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
      }
    }
  }

  private static OutputStream stdout() {
    synchronized (STDOUT_LOCK) {
      reserveStdout();
      return reservedStdout;
    }
  }

  /**
   * Serves this server over stdio (UTF-8 on the raw file descriptors) until the client closes
   * stdin, then lets calls in flight finish and returns. Reserves stdout first (see
   * {@link #reserveStdout()}). One stream serves both eras: a 2025-era client gets a classic
   * session after {@code initialize}, a 2026-07-28 request is answered statelessly
   * ({@link ModernEra#isModernRequest}) by the modern era's server, built on the first such request.
   */
  public void serveStdio() throws IOException {
    OutputStream out = stdout();
    StdioTransport transport = new StdioTransport(new FileInputStream(FileDescriptor.in), out,
        jsonMapper, this::intercept, STDIO_DRAIN, ModernEra.of(this));
    McpSyncServer server = connect(transport);
    try {
      transport.serve();
    } finally {
      server.closeGracefully();
    }
  }

  /** The JSON mapper every transport must use (BigDecimal for decimals, duplicate keys rejected, ...). */
  public McpJsonMapper jsonMapper() {
    return jsonMapper;
  }

  /**
   * Runs one {@code tools/call} through the pipeline exactly as the SDK handler does, without a
   * transport (for in-memory use and tests).
   *
   * @throws IllegalArgumentException for an unknown tool (on the wire, {@link #intercept} answers it)
   */
  public McpSchema.CallToolResult call(String toolName, Map<String, ?> arguments,
      RequestContext request) {
    ExposedTool tool = registry.tool(toolName);
    if (tool == null) {
      edge.traceUnknownTool(toolName, request == null ? RequestContext.empty() : request);
      throw new IllegalArgumentException(
          ErrorReplies.unknownToolMessage(toolName, registry.toolNames()));
    }
    return Results.toMcp(pipeline.call(tool, arguments,
        request == null ? RequestContext.empty() : request));
  }

  private McpSchema.CallToolResult handle(ExposedTool tool, McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    try {
      return Results.toMcp(pipeline.call(tool, request.arguments(), requestContext(exchange, request)));
    } catch (Throwable failure) {
      // The pipeline answers every failure itself; this only guards the conversion around it.
      String incident = ErrorReplies.newIncidentId();
      LOG.error("tool {} failed outside the pipeline (incident {})", tool.name(), incident, failure);
      return Results.toMcp(ErrorReplies.internal(tool.router().name(),
          tool.grouped() ? tool.name() : tool.single().name(), incident));
    }
  }

  private static RequestContext requestContext(McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    McpTransportContext transport = exchange == null ? null : exchange.transportContext();
    Map<String, String> headers = new LinkedHashMap<>();
    String protocolVersion = null;
    if (transport != null) {
      Object raw = transport.get(TRANSPORT_HEADERS);
      if (raw instanceof Map<?, ?> map) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          if (entry.getKey() == null || entry.getValue() == null) {
            continue;
          }
          Object value = entry.getValue();
          String text = value instanceof Collection<?> values
              ? String.join(", ", values.stream().map(String::valueOf).toList())
              : String.valueOf(value);
          headers.put(String.valueOf(entry.getKey()), text);
        }
      }
      Object version = transport.get(TRANSPORT_PROTOCOL_VERSION);
      if (version instanceof String v) {
        protocolVersion = v;
      }
    }
    RequestContext partial = RequestContext.of(headers, null, null, null);
    if (protocolVersion == null) {
      protocolVersion = partial.header("mcp-protocol-version").orElse(null);
    }
    String sessionId = exchange == null ? null : exchange.sessionId();
    return RequestContext.of(headers, request.meta(), sessionId, protocolVersion);
  }

  /** Collects routers, options, context providers and middleware; {@link #build} checks them all. */
  public static final class Builder {
    private final String name;
    private final String version;
    private final List<Object> registrations = new ArrayList<>();
    private Exposition exposition = Exposition.FLAT;
    private String separator = "_";
    private final Map<Class<?>, Function<RequestContext, ?>> providers = new LinkedHashMap<>();
    private final List<FusionMiddleware> middleware = new ArrayList<>();
    private final List<FusionMiddleware> provided = new ArrayList<>();
    private FusionTracer tracer = FusionTracer.NOOP;

    private Builder(String name, String version) {
      this.name = Objects.requireNonNull(name, "name");
      this.version = Objects.requireNonNull(version, "version");
    }

    /** Registers a {@code @Router} instance; {@link #build} finds its generated {@code X_Fusion} by name. */
    public Builder register(Object router) {
      registrations.add(Objects.requireNonNull(router, "router"));
      return this;
    }

    /** Registers a bound generated router ({@code X_Fusion.bind(tools)}), without reflection. */
    public Builder register(GeneratedRouter router) {
      registrations.add(Objects.requireNonNull(router, "router"));
      return this;
    }

    /** FLAT (default) or GROUPED. */
    public Builder exposition(Exposition exposition) {
      this.exposition = Objects.requireNonNull(exposition, "exposition");
      return this;
    }

    /** The FLAT separator: {@code "_"} (default) or {@code "-"}. */
    public Builder separator(String separator) {
      this.separator = Objects.requireNonNull(separator, "separator");
      return this;
    }

    /**
     * A typed context provider: {@code @Context T} parameters (and {@link Invocation#get}) receive
     * its value, computed at most once per call, lazily, after validation.
     */
    public <T> Builder context(Class<T> type, Function<RequestContext, ? extends T> provider) {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(provider, "provider");
      if (providers.containsKey(type)) {
        throw new IllegalArgumentException("A context provider for " + type.getName()
            + " is already registered; register one provider per type.");
      }
      providers.put(type, provider);
      return this;
    }

    /** Server-wide middleware, run around every action in the given order, before {@code @Use} ones. */
    public Builder middleware(FusionMiddleware... middleware) {
      for (FusionMiddleware m : middleware) {
        this.middleware.add(Objects.requireNonNull(m, "middleware"));
      }
      return this;
    }

    /** Instances used where {@code @Use} names their class (instead of no-arg construction). */
    public Builder provide(FusionMiddleware... middleware) {
      for (FusionMiddleware m : middleware) {
        this.provided.add(Objects.requireNonNull(m, "middleware"));
      }
      return this;
    }

    /**
     * The tracer that records one span per {@code tools/call} (DESIGN §7), unknown tools included,
     * e.g. {@code OtelFusionTracer.of(openTelemetry)} from {@code fusion-otel}. Default:
     * {@link FusionTracer#NOOP}. Tracing never changes what the agent receives.
     */
    public Builder tracer(FusionTracer tracer) {
      this.tracer = Objects.requireNonNull(tracer, "tracer");
      return this;
    }

    /**
     * Binds every router and checks what only the running server can know, failing fast with an
     * {@link IllegalStateException} that names each element at fault and its fix: a missing
     * generated class, an SPI version mismatch, a {@code @Context} type that neither a provider,
     * {@link RequestContext} nor a middleware of the action ({@link FusionMiddleware#provides()})
     * provides, a {@code @Use} middleware that cannot be constructed, two routers with one name,
     * duplicate or invalid tool names, a separator other than {@code _} or {@code -}.
     */
    public FusionServer build() {
      ServerConfig config = new ServerConfig(name, version, registrations, exposition, separator,
          providers, middleware, provided);
      return new FusionServer(name, version, ToolRegistry.build(config), tracer);
    }
  }
}
