package dev.mcpfusion.gateway;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.resilience.UpstreamPolicy;
import dev.mcpfusion.resilience.Upstreams;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MCP surface over upstream connectors: the tools of every upstream (a stdio command or a
 * Streamable HTTP endpoint), each listed as {@code <upstream>_<tool>} with its description,
 * annotations and input schema as the upstream lists them, and each call forwarded to its upstream.
 * The tools are routers of an ordinary {@link FusionServer}, so the gateway's surface passes the
 * same edge, pipeline, egress chain and authorization as any connector.
 *
 * <pre>{@code
 * Gateway gateway = Gateway.builder()
 *     .stdio("billing", "java", "-jar", "fusion-sample-billing.jar")
 *     .http("crm", "http://127.0.0.1:8081/mcp")
 *     .build();                                   // connects, lists the tools
 * FusionServer server = gateway.register(FusionServer.builder("gateway", "1.0.0"))
 *     .egressFilter(policy)                       // anything a connector may have
 *     .build();
 * }</pre>
 *
 * <p>Every upstream has a circuit breaker ({@code fusion-resilience}), a connect timeout (5 s by
 * default: the handshake of a new session) and a call timeout (30 s). An upstream that fails to
 * answer is an envelope naming it, never a hang; one whose session broke is reconnected at the
 * next call. Caller sessions are capped (100) and closed when idle (5 minutes).
 */
public final class Gateway implements AutoCloseable {
  /** The gateway's version, sent as its {@code clientInfo} to upstreams. */
  public static final String VERSION = "0.1.0";
  /** The span attribute naming the upstream of a forwarded call. */
  static final String UPSTREAM_ATTRIBUTE = "mcpfusion.upstream";
  /** An upstream's name: its tools are listed as {@code <name>_<tool>}, so it holds no {@code _}. */
  private static final Pattern UPSTREAM_NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  private final String name;
  private final List<UpstreamRouter> routers;
  private final GatewayTools own;
  private final FusionTracer tracer;

  private Gateway(String name, List<UpstreamRouter> routers, GatewayTools own,
      FusionTracer tracer) {
    this.name = name;
    this.routers = List.copyOf(routers);
    this.own = own;
    this.tracer = tracer;
  }

  /** A gateway with no upstream yet. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Registers every upstream's tools with {@code server} (and the gateway's tracer, when one was
   * given), and returns it for more settings. The server must list tools FLAT with separator
   * {@code _} (the defaults).
   */
  public FusionServer.Builder register(FusionServer.Builder server) {
    for (UpstreamRouter router : routers) {
      server.register(router);
    }
    if (own != null) {
      server.register(own);
    }
    if (tracer != FusionTracer.NOOP) {
      server.tracer(tracer);
    }
    return server;
  }

  /** A server of the gateway's tools alone, named as configured ({@code gateway} by default). */
  public FusionServer server() {
    return register(FusionServer.builder(name, VERSION)).build();
  }

  /**
   * The gateway's tool names, {@code <upstream>_<tool>}, upstream by upstream, then its handoff
   * tools when it has a delegation key.
   */
  public List<String> toolNames() {
    List<String> names = new ArrayList<>();
    for (UpstreamRouter router : routers) {
      for (String tool : router.toolNames()) {
        names.add(router.client().name() + "_" + tool);
      }
    }
    if (own != null) {
      names.add(GatewayTools.NAME + "_handoff");
      names.add(GatewayTools.NAME + "_return");
    }
    return names;
  }

  /** The router of upstream {@code upstream} (tests reach its client and breaker). */
  UpstreamRouter router(String upstream) {
    for (UpstreamRouter router : routers) {
      if (router.client().name().equals(upstream)) {
        return router;
      }
    }
    throw new IllegalArgumentException("no upstream " + upstream);
  }

  /** Closes every upstream session and ends every upstream process. */
  @Override
  public void close() {
    for (UpstreamRouter router : routers) {
      router.client().close();
    }
  }

  /** Upstreams and limits of a {@link Gateway}; {@link #build} connects. */
  public static final class Builder {
    private final Map<String, Spec> upstreams = new LinkedHashMap<>();
    private String name = "gateway";
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration callTimeout = Duration.ofSeconds(30);
    private UpstreamPolicy breaker = UpstreamPolicy.defaults();
    private int maxSessions = 100;
    private Duration sessionIdle = Duration.ofMinutes(5);
    private Clock clock = Clock.systemUTC();
    private FusionTracer tracer = FusionTracer.NOOP;
    private Path directory;
    private byte[] delegationKey;
    private Duration delegationTtl = Duration.ofSeconds(60);

    private Builder() {}

    /** An upstream started as {@code command} that speaks MCP over its stdin and stdout. */
    public Builder stdio(String name, String... command) {
      return stdio(name, Arrays.asList(command));
    }

    /** An upstream started as {@code command} that speaks MCP over its stdin and stdout. */
    public Builder stdio(String name, List<String> command) {
      if (command.isEmpty()) {
        throw new IllegalArgumentException("upstream " + name + ": the command is empty;"
            + " give the program and its arguments, e.g. java -jar server.jar");
      }
      return add(name, new Spec(List.copyOf(command), null, Map.of()));
    }

    /** An upstream at a Streamable HTTP endpoint ({@code http://host:port/mcp}). */
    public Builder http(String name, String url) {
      return http(name, url, Map.of());
    }

    /**
     * An upstream at a Streamable HTTP endpoint, sent {@code headers} with every request (e.g. an
     * {@code Authorization} the operator configured; the caller's own credentials never go on).
     */
    public Builder http(String name, String url, Map<String, String> headers) {
      URI uri;
      try {
        uri = URI.create(url);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("upstream " + name + ": '" + url + "' is not a URL");
      }
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException("upstream " + name + ": expected an http:// or https://"
            + " URL such as http://127.0.0.1:8080/mcp but was '" + url + "'");
      }
      for (String header : headers.keySet()) {
        if (header.equalsIgnoreCase("host") || header.equalsIgnoreCase("content-length")
            || header.equalsIgnoreCase("connection")) {
          throw new IllegalArgumentException("upstream " + name + ": the header " + header
              + " is set by the HTTP client; remove it");
        }
      }
      return add(name, new Spec(null, uri, Map.copyOf(headers)));
    }

    private Builder add(String name, Spec spec) {
      Objects.requireNonNull(name, "name");
      if (!UPSTREAM_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("upstream '" + name + "': expected a lowercase name"
            + " of letters, digits and '-' starting with a letter (at most 32), e.g. billing;"
            + " its tools are listed as <name>_<tool>, so it cannot contain '_'");
      }
      if (GatewayTools.NAME.equals(name)) {
        throw new IllegalArgumentException("upstream 'gateway': the name is the gateway's own"
            + " (gateway_handoff, gateway_return); choose another");
      }
      if (upstreams.putIfAbsent(name, spec) != null) {
        throw new IllegalArgumentException("upstream " + name + " is declared twice");
      }
      return this;
    }

    /** The server name {@link Gateway#server()} uses ({@code gateway} by default). */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /** How long a new upstream session may take to start and answer {@code initialize} (5 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    /** How long a forwarded call may take before the agent is told it timed out (30 s). */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = positive(timeout, "callTimeout");
      return this;
    }

    /** When each upstream's circuit opens and heals ({@link UpstreamPolicy#defaults()}). */
    public Builder breaker(UpstreamPolicy policy) {
      this.breaker = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** At most {@code max} caller sessions at once (100), each closed after {@code idle} unused (5 minutes). */
    public Builder sessions(int max, Duration idle) {
      if (max < 1) {
        throw new IllegalArgumentException("sessions: max must be at least 1 but was " + max);
      }
      this.maxSessions = max;
      this.sessionIdle = positive(idle, "sessions idle");
      return this;
    }

    /** The tracer of the gateway's spans; its server traces with it too ({@link Gateway#register}). */
    public Builder tracer(FusionTracer tracer) {
      this.tracer = Objects.requireNonNull(tracer, "tracer");
      return this;
    }

    /** The working directory of stdio upstreams (the gateway's own by default). */
    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    /**
     * Adds the handoff tools ({@code gateway_handoff}, {@code gateway_return}): while a caller is
     * handed off to an upstream, every call to that upstream carries a delegation token signed with
     * {@code key} (HMAC-SHA256, at least 32 bytes), valid for {@code ttl} (60 s by default), which
     * the upstream checks with {@link DelegationVerifier}.
     */
    public Builder delegation(byte[] key, Duration ttl) {
      this.delegationKey = DelegationVerifier.checkKey(key);
      this.delegationTtl = positive(ttl, "delegation ttl");
      return this;
    }

    /** The clock of session idleness and delegation expiry (tests). */
    Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Reads upstreams and limits from a YAML or JSON file ({@code .json}: JSON); stdio commands run
     * in the file's directory. The format: the module's README.
     *
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException naming the file, the key at fault and what was expected
     */
    public Builder config(Path file) throws IOException {
      GatewayConfig.apply(file, this);
      return this;
    }

    /**
     * Opens a session to every upstream and lists its tools.
     *
     * @throws IllegalStateException naming the upstream that could not be reached; the sessions
     *     already opened are closed
     */
    public Gateway build() {
      if (upstreams.isEmpty()) {
        throw new IllegalStateException("A gateway needs at least one upstream: add stdio(name,"
            + " command...) or http(name, url)");
      }
      Upstreams breakers = Upstreams.create(breaker);
      CallerSessions sessions = new CallerSessions(maxSessions, sessionIdle, clock);
      DelegationMinter minter = delegationKey == null ? null
          : new DelegationMinter(delegationKey, name, delegationTtl, clock);
      List<UpstreamRouter> routers = new ArrayList<>();
      try {
        for (Map.Entry<String, Spec> entry : upstreams.entrySet()) {
          String upstream = entry.getKey();
          Spec spec = entry.getValue();
          UpstreamClient client = spec.command() != null
              ? UpstreamClient.stdio(upstream, spec.command(), Map.of(), directory, connectTimeout,
                  callTimeout)
              : UpstreamClient.http(upstream, spec.url(), spec.headers(), connectTimeout,
                  callTimeout);
          List<Map<String, Object>> tools;
          try {
            tools = client.listTools();
          } catch (UpstreamFailure e) {
            client.close();
            throw new IllegalStateException("The gateway cannot start upstream " + upstream + " ("
                + spec.describe() + "): " + e.getMessage()
                + " Check that it runs, or remove it from the gateway.", e);
          }
          List<dev.mcpfusion.core.spi.ActionDescriptor> actions =
              UpstreamTools.actions(upstream, tools);
          if (actions.isEmpty()) {
            // A server refuses a router without actions; the upstream simply adds nothing.
            LOG.warn("upstream {} lists no tool the gateway can list; it is left out", upstream);
            client.close();
            continue;
          }
          routers.add(new UpstreamRouter(client, breakers.upstream(upstream), actions, tracer,
              sessions, minter));
        }
      } catch (RuntimeException e) {
        routers.forEach(r -> r.client().close());
        throw e;
      }
      List<String> names = routers.stream().map(r -> r.client().name()).toList();
      return new Gateway(name, routers, minter == null ? null : new GatewayTools(names, sessions),
          tracer);
    }

    private static Duration positive(Duration d, String what) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be a positive duration but was " + d);
      }
      return d;
    }
  }

  /** One upstream as declared: a command, or a URL with its headers. */
  private record Spec(List<String> command, URI url, Map<String, String> headers) {
    String describe() {
      return command != null ? "command " + String.join(" ", command) : "url " + url;
    }
  }
}
