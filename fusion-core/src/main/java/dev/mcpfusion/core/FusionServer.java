package dev.mcpfusion.core;

import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.guard.Gates;
import dev.mcpfusion.wire.input.RequestStates;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.Pipeline;
import dev.mcpfusion.core.server.ServerConfig;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.spi.GeneratedFeatures;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.Observed;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.core.surface.Surfaces;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * An MCP server built from {@code @Router} classes: every call runs through one pipeline and every
 * message, on every transport and in both protocol eras, through one front door.
 *
 * <pre>{@code
 * FusionServer server = FusionServer.builder("billing", "1.0.0")
 *     .register(new BillingTools(store))
 *     .exposition(Exposition.GROUPED)
 *     .context(Tenant.class, request -> Tenant.from(request))
 *     .build();
 * server.serveStdio();
 * }</pre>
 *
 * <p>Serve it over stdio with {@link #serveStdio()}, over HTTP with {@code fusion-http}
 * ({@code FusionHttp.serve(server, options)}), and test it with {@code fusion-testing}
 * ({@code FusionTester.of(builder)}). Immutable and thread-safe once built.
 */
public final class FusionServer {
  /** How long {@link #serveStdio} lets calls in flight finish after the client closed stdin. */
  private static final Duration STDIO_DRAIN = Duration.ofSeconds(30);

  // The process has one stdout: once reserved, it belongs to the stdio channel for good.
  private static final Object STDOUT_LOCK = new Object();
  private static OutputStream reservedStdout;

  private final String name;
  private final String version;
  private final ToolRegistry registry;
  private final FeatureRegistry features;
  private final Edge edge;

  private FusionServer(String name, String version, ToolRegistry registry, FeatureRegistry features,
      FusionTracer tracer, List<EgressFilter> filters, TaskOptions tasks, RequestStates states,
      int maxListenStreams, Duration listenHeartbeat, Surfaces surfaces, SubscriptionBus bus) {
    this.name = name;
    this.version = version;
    this.registry = registry;
    this.features = features;
    Egress egress = new Egress(filters, registry.defaultRedaction());
    this.edge = new Edge(name, version, registry, features, new Pipeline(registry, tracer, egress),
        tracer, tasks, states, maxListenStreams, listenHeartbeat, surfaces);
    if (bus != null) {
      edge.shareSubscriptions(bus);
    }
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

  /** The names of the tools, in the order {@code tools/list} returns them. */
  public List<String> toolNames() {
    return registry.toolNames();
  }

  /**
   * The name of the tool that exposes {@code router}'s {@code action}: FLAT
   * {@code billing_list_invoices} (the action alone, {@code list_invoices}, for
   * {@code @Router(prefixed = false)}), GROUPED the router's tool {@code billing}; {@code null} when
   * no such action is registered.
   */
  public String toolName(String router, String action) {
    return registry.toolName(router, action);
  }

  /** The names of the prompts, in the order {@code prompts/list} returns them. */
  public List<String> promptNames() {
    return features.promptNames();
  }

  /**
   * The front door every transport hands its messages to. For the framework's own transports
   * ({@code fusion-http}, {@code fusion-testing}); its package is not part of the public API.
   */
  public Edge edge() {
    return edge;
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
   * {@link #reserveStdout()}). One stream serves both eras: a 2025-era client gets a session after
   * {@code initialize}; a 2026-07-28 request (its {@code params._meta} names the protocol version)
   * is answered without any handshake.
   */
  public void serveStdio() throws IOException {
    try {
      new StdioTransport(new FileInputStream(FileDescriptor.in), stdout(), edge, STDIO_DRAIN).serve();
    } finally {
      edge.close();
    }
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
    private FusionMeter meter = FusionMeter.NOOP;
    private CallLimits limits = CallLimits.none();
    private Redaction redaction = Redaction.none();
    private boolean toonDescriptions;
    private byte[] requestStateKey;
    private Duration requestStateTtl = RequestStates.DEFAULT_TTL;
    private int maxRequestStateBytes = RequestStates.DEFAULT_MAX_BYTES;
    private Function<RequestContext, ?> subscriptionScope;
    private SubscriptionBus subscriptionBus;
    private final List<EgressFilter> egressFilters = new ArrayList<>();
    private TaskOptions tasks = TaskOptions.defaults();
    private int maxListenStreams = 64;
    private Duration listenHeartbeat = Duration.ofSeconds(15);
    private Set<String> tags;
    private final Map<String, String> tagScopes = new LinkedHashMap<>();

    private Builder(String name, String version) {
      this.name = Objects.requireNonNull(name, "name");
      this.version = Objects.requireNonNull(version, "version");
    }

    /**
     * Registers a {@code @Router} instance, or any instance with {@code @Prompt},
     * {@code @Resource} or {@code @Complete} methods; {@link #build} finds its generated
     * {@code X_Fusion} and {@code X_Features} by name.
     */
    public Builder register(Object router) {
      registrations.add(Objects.requireNonNull(router, "router"));
      return this;
    }

    /** Registers a bound generated router ({@code X_Fusion.bind(tools)}), without reflection. */
    public Builder register(GeneratedRouter router) {
      registrations.add(Objects.requireNonNull(router, "router"));
      return this;
    }

    /**
     * Registers a bound generated features class ({@code X_Features.bind(instance)}: the prompts,
     * resources and completions of a class), without reflection.
     */
    public Builder register(GeneratedFeatures features) {
      registrations.add(Objects.requireNonNull(features, "features"));
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
     * The tracer that records one span per request and notification the server handles (unknown
     * tools included) and per request it sends its client, e.g.
     * {@code OtelFusionTracer.of(openTelemetry)} from {@code fusion-otel}. Default:
     * {@link FusionTracer#NOOP}. Tracing never changes what the agent receives.
     */
    public Builder tracer(FusionTracer tracer) {
      this.tracer = Objects.requireNonNull(tracer, "tracer");
      return this;
    }

    /**
     * The meter that records {@code mcp.server.operation.duration},
     * {@code mcp.server.session.duration} and the guard counters, e.g.
     * {@code OtelFusionMeter.of(openTelemetry)} from {@code fusion-otel}. Default:
     * {@link FusionMeter#NOOP}. Metering never changes what the agent receives.
     */
    public Builder meter(FusionMeter meter) {
      this.meter = Objects.requireNonNull(meter, "meter");
      return this;
    }

    /**
     * Server-wide call limits: how many calls run at once (and wait), the deadline of one call and
     * the largest reply. A router's or method's {@code @Limits} overrides each field it sets.
     * Default: {@link CallLimits#none()}.
     */
    public Builder limits(CallLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * The server-wide redaction: what to mask in everything an agent reads (data,
     * {@code structuredContent}, rules, suggestions, UI blocks, error messages and details). A
     * view's {@code @Redact} replaces it for the actions presenting that view: the most specific
     * wins. If redaction cannot run, the call answers {@code INTERNAL_ERROR}, never the raw data.
     */
    public Builder redact(Redaction redaction) {
      this.redaction = Objects.requireNonNull(redaction, "redaction");
      return this;
    }

    /**
     * Adds an egress filter: it sees every message the server is about to send — tool results
     * and error envelopes, prompt, resource and completion results, progress and log
     * notifications, sampling and elicitation requests, resource updates — after redaction, with
     * its channel and request, and lets it pass, rewrites it or vetoes it ({@link EgressFilter}).
     * Filters run in the order they are added. A veto or a filter that throws never lets the data
     * out: the client gets an error with an incident id, or nothing (a notification).
     */
    public Builder egressFilter(EgressFilter filter) {
      egressFilters.add(Objects.requireNonNull(filter, "filter"));
      return this;
    }

    /**
     * Who hears of a change to a subscribed resource. Each {@code resources/subscribe} is recorded
     * under the key {@code scope} gives for its request, and a successful mutation that marks the
     * resource's router stale notifies only the subscriptions whose key equals the one its own
     * request gives: say, the tenant, {@code .subscriptionScope(Tenant::from)}, so that one
     * tenant's changes are never announced to another's sessions. Without it every subscribed
     * session hears of every such mutation. When {@code scope} throws, the subscription fails with
     * an internal error, and a mutation whose key it cannot give notifies no one.
     */
    public Builder subscriptionScope(Function<RequestContext, ?> scope) {
      this.subscriptionScope = Objects.requireNonNull(scope, "scope");
      return this;
    }

    /**
     * Shares the 2025-era resource subscriptions with the connector's other instances through
     * {@code bus}, so a mutation made through one instance notifies a subscriber whose event
     * stream another carries, and a 2026-07-28 listen stream another holds (fusion-redis has
     * one). Default: none, they stay in this process.
     */
    public Builder subscriptionBus(SubscriptionBus bus) {
      this.subscriptionBus = Objects.requireNonNull(bus, "bus");
      return this;
    }

    /**
     * The 2026-07-28 {@code subscriptions/listen} streams (over HTTP and stdio): at most
     * {@code max} open at once — one more is refused with {@code SERVER_BUSY} (-32003). Over HTTP
     * each sends an SSE heartbeat comment every {@code heartbeat}, which is how a client that left
     * is noticed and its stream released, and holds one request thread; over stdio a stream holds
     * no thread. Default: 64 streams, a heartbeat every 15 seconds.
     *
     * @throws IllegalArgumentException for {@code max} below 1 or a heartbeat not positive
     */
    public Builder listenStreams(int max, Duration heartbeat) {
      Objects.requireNonNull(heartbeat, "heartbeat");
      if (max < 1) {
        throw new IllegalArgumentException("listenStreams: max must be at least 1, was " + max);
      }
      if (heartbeat.isNegative() || heartbeat.isZero()) {
        throw new IllegalArgumentException("listenStreams: heartbeat must be positive, was "
            + heartbeat);
      }
      this.maxListenStreams = max;
      this.listenHeartbeat = heartbeat;
      return this;
    }

    /**
     * How the tasks of {@code @TaskSupport} actions are kept: how long a finished task's result
     * stays (then {@code tasks/get} says it expired), the polling interval suggested, the most
     * tasks kept at once (over it a call is refused {@code SERVER_BUSY}), the store and who may
     * see a task. Default: {@link TaskOptions#defaults()}.
     */
    public Builder tasks(TaskOptions tasks) {
      this.tasks = Objects.requireNonNull(tasks, "tasks");
      return this;
    }

    /**
     * The key that signs the {@code requestState} of 2026-07-28 input-required results (at least 32
     * bytes; HMAC-SHA256). A handler that asks the client ({@link RequestContext#elicit},
     * {@code sample}, {@code roots}) is answered with the questions and a state the client sends
     * back with its answers; the server keeps nothing in between, so any instance that holds this
     * key completes the retry. Give every instance of a fleet the same key, from a secret store.
     * Default: a random key per process — a retry must then reach the same process, and a restart
     * invalidates every state in flight (the client is told to start over).
     *
     * @throws IllegalArgumentException for a key shorter than 32 bytes
     */
    public Builder requestStateKey(byte[] key) {
      Objects.requireNonNull(key, "key");
      RequestStates.of(key, requestStateTtl, maxRequestStateBytes, Clock.systemUTC());
      this.requestStateKey = key.clone();
      return this;
    }

    /**
     * How long a 2026-07-28 {@code requestState} stays valid after it is issued; a retry after that
     * is refused with -32602 and told to start over. Default: 10 minutes.
     */
    public Builder requestStateTtl(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      RequestStates.of(null, ttl, maxRequestStateBytes, Clock.systemUTC());
      this.requestStateTtl = ttl;
      return this;
    }

    /**
     * The largest 2026-07-28 {@code requestState} the server issues or accepts, in bytes (at least
     * 1024). A state that would be larger (the answers gathered so far are too long) and a larger
     * one sent back are each refused with -32602 saying so. Default: 65536.
     */
    public Builder maxRequestStateBytes(int maxBytes) {
      RequestStates.of(null, requestStateTtl, maxBytes, Clock.systemUTC());
      this.maxRequestStateBytes = maxBytes;
      return this;
    }

    /**
     * Whether GROUPED tool descriptions list their actions as one TOON table (name, description,
     * required fields, notes such as {@code DESTRUCTIVE}) instead of {@code Workflow:} lines: the
     * same facts in fewer tokens for routers with many actions (measured in BENCHMARKS.md). Default:
     * {@code false}. FLAT descriptions are unchanged. Needs {@code dev.toonformat:jtoon} on the
     * class path; {@link #build()} says so when it is missing.
     */
    public Builder toonDescriptions(boolean toon) {
      this.toonDescriptions = toon;
      return this;
    }

    /**
     * Shows every session only the actions carrying at least one of {@code tags}
     * ({@code @Router(tags)}, {@code @Tags}); a call of any other is answered as a call of an
     * unknown tool. A client narrows its own view further with the {@code Mcp-Fusion-Tags} HTTP
     * header (tags separated by commas), never widens it.
     */
    public Builder tags(String... tags) {
      this.tags = Set.of(tags);
      return this;
    }

    /**
     * Shows the actions carrying {@code tag} only to a caller holding {@code scope}: with any tag
     * mapped, an authenticated caller sees only the actions carrying a tag whose scope it holds (a
     * caller no authenticator vouched for, such as stdio's, is not narrowed).
     */
    public Builder tagScope(String tag, String scope) {
      tagScopes.put(Objects.requireNonNull(tag, "tag"), Objects.requireNonNull(scope, "scope"));
      return this;
    }

    /**
     * Binds every router and checks what only the running server can know, failing fast with an
     * {@link IllegalStateException} that names each element at fault and its fix: a missing
     * generated class, an SPI version mismatch, a {@code @Context} type that neither a provider,
     * {@link RequestContext} nor a middleware of the action ({@link FusionMiddleware#provides()})
     * provides, a {@code @Use} middleware that cannot be constructed, two routers with one name,
     * duplicate or invalid tool names, a separator other than {@code _} or {@code -}, an
     * out-of-range {@code @Limits} value.
     */
    public FusionServer build() {
      ServerConfig config = new ServerConfig(name, version, registrations, exposition, separator,
          providers, middleware, provided, redaction, limits, toonDescriptions, subscriptionScope);
      // One gate per @Limits(maxConcurrent) declaration, whether tools or prompts inherit it.
      Gates gates = new Gates();
      ToolRegistry tools = ToolRegistry.build(config, gates);
      return new FusionServer(name, version, tools, FeatureRegistry.build(config, gates),
          Observed.of(tracer, meter), egressFilters, tasks, RequestStates.of(requestStateKey,
              requestStateTtl, maxRequestStateBytes, Clock.systemUTC()), maxListenStreams,
          listenHeartbeat, Surfaces.of(tools, tags, tagScopes), subscriptionBus);
    }
  }
}
