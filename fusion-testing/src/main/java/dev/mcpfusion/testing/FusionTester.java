package dev.mcpfusion.testing;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.json.Json;
import dev.mcpfusion.testing.internal.InProcessWire;
import dev.mcpfusion.testing.internal.JsonTrees;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a connector through the real MCP server, in memory: every message goes as JSON text through
 * the server's production front door (the same edge stdio and HTTP hand their bytes to: parsing,
 * lifecycle, routing, the pipeline, the SDK's session), with no sockets and no processes. The
 * tester speaks either protocol era ({@link #protocolVersion}).
 *
 * <pre>{@code
 * try (FusionTester tester = FusionTester.of(new BillingTools(InvoiceStore.sample()))
 *     .context(new Tenant("t_777"))) {
 *   ToolResult r = tester.call("billing", "void_invoice", Map.of("id", "INV-7"));
 *   FusionAssertions.assertThat(r).isSuccess().invalidates("billing.*");
 * }
 * }</pre>
 *
 * <p>Options are set before the first call; the first call builds the server (failing fast as
 * {@code FusionServer.build()} does) and, in a 2025 era, runs the {@code initialize} handshake.
 * Calls may be made from several threads at once.
 */
public final class FusionTester implements AutoCloseable {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** The stateless protocol version (no handshake; every request names it in {@code params._meta}). */
  public static final String MODERN = "2026-07-28";

  /** The protocol version the tester speaks unless told otherwise. */
  public static final String DEFAULT_VERSION = "2025-11-25";

  private static final List<String> CLASSIC_VERSIONS =
      List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

  private final FusionServer.Builder builder;
  private final Object lock = new Object();
  private final java.util.concurrent.atomic.AtomicLong ids = new java.util.concurrent.atomic.AtomicLong();
  private String separator;
  private String protocolVersion = DEFAULT_VERSION;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private volatile Started started;
  private volatile boolean closed;

  private record Started(FusionServer server, InProcessWire wire) {}

  private FusionTester(FusionServer.Builder builder) {
    this.builder = builder;
  }

  /** A tester over a server named {@code fusion-tester} with these {@code @Router} instances (or bound {@code X_Fusion}s). */
  public static FusionTester of(Object... routers) {
    FusionServer.Builder builder = FusionServer.builder("fusion-tester", "0.0.0");
    for (Object router : routers) {
      if (router instanceof GeneratedRouter generated) {
        builder.register(generated);
      } else {
        builder.register(router);
      }
    }
    return new FusionTester(builder);
  }

  /**
   * A tester over the server {@code builder} describes, with every option already set on it; the
   * tester's own options are added to that builder.
   */
  public static FusionTester of(FusionServer.Builder builder) {
    return new FusionTester(Objects.requireNonNull(builder, "builder"));
  }

  /**
   * Runs {@code test} against {@code tester} and closes the tester afterwards, in the style of
   * {@code JavalinTest.test(app, (server, client) -> ...)}:
   * {@code FusionTester.test(FusionTester.of(new BillingTools(store)), t -> ...)}.
   */
  public static void test(FusionTester tester, Consumer<FusionTester> test) {
    try (tester) {
      test.accept(tester);
    }
  }

  // ---- options ---------------------------------------------------------------------------------

  /** FLAT (default) or GROUPED exposition. */
  public FusionTester exposition(Exposition exposition) {
    configure(b -> b.exposition(exposition));
    return this;
  }

  /** The FLAT separator, {@code "_"} (default) or {@code "-"}. */
  public FusionTester separator(String separator) {
    configure(b -> b.separator(separator));
    this.separator = separator;
    return this;
  }

  /**
   * A fixed context value for every call, registered under its own class ({@code value.getClass()}).
   * To provide it under an interface or a superclass, use {@link #context(Class, Function)}.
   */
  public <T> FusionTester context(T value) {
    Objects.requireNonNull(value, "value");
    return provideConstant(value.getClass(), value);
  }

  private <T> FusionTester provideConstant(Class<T> type, Object value) {
    T typed = type.cast(value);
    return context(type, request -> typed);
  }

  /** A typed context provider, as {@code FusionServer.Builder.context}. */
  public <T> FusionTester context(Class<T> type, Function<RequestContext, ? extends T> provider) {
    configure(b -> b.context(type, provider));
    return this;
  }

  /**
   * A transport header every call carries, as an HTTP transport would pass it (it reaches
   * {@link RequestContext#headers()}); the in-memory transport has none otherwise.
   */
  public FusionTester header(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    configure(b -> headers.put(name, value));
    return this;
  }

  /** Server-wide middleware, in order. */
  public FusionTester middleware(FusionMiddleware... middleware) {
    configure(b -> b.middleware(middleware));
    return this;
  }

  /** Middleware instances for {@code @Use} lookup. */
  public FusionTester provide(FusionMiddleware... middleware) {
    configure(b -> b.provide(middleware));
    return this;
  }

  /**
   * The protocol version the tester speaks: a 2025 version ({@value #DEFAULT_VERSION}, the
   * default; also 2025-06-18, 2025-03-26, 2024-11-05), negotiated with {@code initialize}, or
   * {@value #MODERN}, stateless: every request carries the version in {@code params._meta}.
   *
   * @throws IllegalArgumentException for a version the server does not speak
   */
  public FusionTester protocolVersion(String version) {
    Objects.requireNonNull(version, "version");
    if (!MODERN.equals(version) && !CLASSIC_VERSIONS.contains(version)) {
      throw new IllegalArgumentException("Unsupported protocol version '" + version + "'; use "
          + MODERN + " or one of " + CLASSIC_VERSIONS + ".");
    }
    configure(b -> this.protocolVersion = version);
    return this;
  }

  /**
   * The tracer that records one span per call, as {@code FusionServer.Builder.tracer}; headers
   * set with {@link #header} reach it as an HTTP transport's would, unknown tools included.
   */
  public FusionTester tracer(FusionTracer tracer) {
    Objects.requireNonNull(tracer, "tracer");
    configure(b -> b.tracer(tracer));
    return this;
  }

  private void configure(Consumer<FusionServer.Builder> option) {
    synchronized (lock) {
      if (started != null || closed) {
        throw new IllegalStateException(
            "Set FusionTester options before the first call; this tester is already " + (closed ? "closed" : "started"));
      }
      option.accept(builder);
    }
  }

  // ---- calls -----------------------------------------------------------------------------------

  /**
   * Calls {@code router}'s {@code action} through a real {@code tools/call} in the server's
   * exposition: FLAT calls the tool {@code router<separator>action} with {@code arguments}; GROUPED
   * calls the tool {@code router} with {@code "action": action} followed by {@code arguments}.
   *
   * @throws IllegalArgumentException in GROUPED exposition, when {@code arguments} has an
   *     {@code action} key: the discriminator is the {@code action} parameter and cannot be
   *     overridden (send a raw one with {@link #callTool})
   */
  public ToolResult call(String router, String action, Map<String, ?> arguments) {
    Objects.requireNonNull(router, "router");
    Objects.requireNonNull(action, "action");
    Map<String, ?> args = arguments == null ? Map.of() : arguments;
    Started s = start();
    if (s.server().exposition() == Exposition.GROUPED) {
      if (args.containsKey("action")) {
        throw new IllegalArgumentException("In GROUPED exposition the \"action\" discriminator comes from "
            + "call(router, action, ...) and cannot be overridden by the arguments (" + args.get("action")
            + "); use callTool(\"" + router + "\", ...) to send a raw discriminator.");
      }
      Map<String, Object> grouped = new LinkedHashMap<>();
      grouped.put("action", action);
      grouped.putAll(args);
      return callTool(router, grouped);
    }
    return callTool(flatName(s.server(), router, action), args);
  }

  /** Calls {@code router}'s {@code action} without arguments. */
  public ToolResult call(String router, String action) {
    return call(router, action, Map.of());
  }

  /**
   * Sends a raw {@code tools/call} of {@code toolName} with {@code arguments} as given (for unknown
   * tools, missing or wrong discriminators). A JSON-RPC error reply, such as {@code UNKNOWN_TOOL},
   * is returned as a {@link ToolResult} too.
   */
  public ToolResult callTool(String toolName, Map<String, ?> arguments) {
    return callTool(toolName, arguments, null);
  }

  /**
   * Sends a raw {@code tools/call} with a {@code params._meta} (trace context, progress token,
   * tenant hints), which reaches {@link RequestContext#meta()}.
   */
  public ToolResult callTool(String toolName, Map<String, ?> arguments, Map<String, ?> meta) {
    Objects.requireNonNull(toolName, "toolName");
    Started s = start();
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", toolName);
    params.put("arguments", arguments == null ? Map.of() : arguments);
    Map<String, Object> requestMeta = meta(meta);
    if (requestMeta != null) {
      params.put("_meta", requestMeta);
    }
    return ToolResult.fromReply(request(s, McpSchema.METHOD_TOOLS_CALL, params));
  }

  /** Exactly the tools {@code tools/list} returns (all pages), in order. */
  public List<McpSchema.Tool> listTools() {
    Started s = start();
    List<McpSchema.Tool> tools = new ArrayList<>();
    String cursor = null;
    do {
      Map<String, Object> params = new LinkedHashMap<>();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      Map<String, Object> requestMeta = meta(null);
      if (requestMeta != null) {
        params.put("_meta", requestMeta);
      }
      Map<?, ?> reply = (Map<?, ?>) Json.parse(request(s, McpSchema.METHOD_TOOLS_LIST, params));
      if (!(reply.get("result") instanceof Map<?, ?> result)) {
        throw new IllegalStateException("tools/list failed: " + reply.get("error"));
      }
      McpSchema.ListToolsResult page = JsonTrees.toListToolsResult(result);
      tools.addAll(page.tools());
      cursor = page.nextCursor();
    } while (cursor != null);
    return List.copyOf(tools);
  }

  // ---- prompts, resources, completions --------------------------------------------------------

  /** Sends {@code prompts/list} and returns its {@code prompts}, each a plain JSON tree. */
  public List<Map<String, Object>> listPrompts() {
    return listOf("prompts/list", "prompts");
  }

  /** Sends {@code resources/list} and returns its {@code resources}, each a plain JSON tree. */
  public List<Map<String, Object>> listResources() {
    return listOf("resources/list", "resources");
  }

  /** Sends {@code resources/templates/list} and returns its {@code resourceTemplates}. */
  public List<Map<String, Object>> listResourceTemplates() {
    return listOf("resources/templates/list", "resourceTemplates");
  }

  private List<Map<String, Object>> listOf(String method, String member) {
    McpResponse response = new McpResponse(send(method, new LinkedHashMap<>()));
    if (response.isError()) {
      throw new IllegalStateException(method + " failed: " + response.raw());
    }
    List<Map<String, Object>> out = new ArrayList<>();
    if (response.result().get(member) instanceof List<?> list) {
      for (Object item : list) {
        out.add(JsonTrees.stringKeys((Map<?, ?>) item));
      }
    }
    return out;
  }

  /** Sends {@code prompts/get} of {@code name} with {@code arguments} (strings) as given. */
  public PromptResponse getPrompt(String name, Map<String, ?> arguments) {
    Objects.requireNonNull(name, "name");
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", name);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return new PromptResponse(send("prompts/get", params));
  }

  /** Sends {@code resources/read} of {@code uri}. */
  public ResourceResponse readResource(String uri) {
    Objects.requireNonNull(uri, "uri");
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("uri", uri);
    return new ResourceResponse(send("resources/read", params));
  }

  /** Sends {@code completion/complete} for argument {@code argument} of prompt {@code prompt}. */
  public CompletionResponse complete(String prompt, String argument, String value) {
    return complete(Map.of("type", "ref/prompt", "name", prompt), argument, value);
  }

  /** Sends {@code completion/complete} for variable {@code variable} of resource template {@code uriTemplate}. */
  public CompletionResponse completeResource(String uriTemplate, String variable, String value) {
    return complete(Map.of("type", "ref/resource", "uri", uriTemplate), variable, value);
  }

  private CompletionResponse complete(Map<String, Object> ref, String argument, String value) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("ref", ref);
    params.put("argument", Map.of("name", argument, "value", value));
    return new CompletionResponse(send("completion/complete", params));
  }

  /**
   * Sends {@code resources/subscribe} for {@code uri} (a 2025 session only): a successful mutation
   * that invalidates the resource's router then sends {@code notifications/resources/updated},
   * captured by {@link #resourceUpdates()}.
   */
  public McpResponse subscribe(String uri) {
    return new McpResponse(send("resources/subscribe", new LinkedHashMap<>(Map.of("uri", uri))));
  }

  /** Sends {@code resources/unsubscribe} for {@code uri}. */
  public McpResponse unsubscribe(String uri) {
    return new McpResponse(send("resources/unsubscribe", new LinkedHashMap<>(Map.of("uri", uri))));
  }

  /** The URI of every {@code notifications/resources/updated} received so far, in order. */
  public List<String> resourceUpdates() {
    List<String> uris = new ArrayList<>();
    for (String message : rawMessages()) {
      if (message.contains("notifications/resources/updated")
          && Json.parse(message) instanceof Map<?, ?> m
          && "notifications/resources/updated".equals(m.get("method"))
          && m.get("params") instanceof Map<?, ?> params) {
        uris.add(String.valueOf(params.get("uri")));
      }
    }
    return uris;
  }

  private String send(String method, Map<String, Object> params) {
    Started s = start();
    Map<String, Object> requestMeta = meta(null);
    if (requestMeta != null) {
      params.put("_meta", requestMeta);
    }
    return request(s, method, params);
  }

  /** The request's {@code _meta}: the caller's, plus the protocol version in the 2026-07-28 era. */
  private Map<String, Object> meta(Map<String, ?> meta) {
    if (!MODERN.equals(protocolVersion)) {
      return meta == null ? null : new LinkedHashMap<>(meta);
    }
    Map<String, Object> merged = new LinkedHashMap<>();
    merged.put("io.modelcontextprotocol/protocolVersion", MODERN);
    merged.put("io.modelcontextprotocol/clientCapabilities", Map.of());
    if (meta != null) {
      merged.putAll(meta);
    }
    return merged;
  }

  private String request(Started s, String method, Map<String, Object> params) {
    long id = ids.incrementAndGet();
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    return s.wire().request(id, Json.write(message));
  }

  /** The JSON text of every message the server sent the client so far, in order (the handshake included). */
  public List<String> rawMessages() {
    return start().wire().serverToClient();
  }

  /** The JSON text of every message the client sent the server so far, in order. */
  public List<String> sentMessages() {
    return start().wire().clientToServer();
  }

  /** The server under test (built on first use). */
  public FusionServer server() {
    return start().server();
  }

  /** Closes the client, the server and the transport pair. Idempotent. */
  @Override
  public void close() {
    Started s;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      s = started;
    }
    if (s == null) {
      return;
    }
    s.wire().close();
  }

  // ---- start -----------------------------------------------------------------------------------

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
    if (!MODERN.equals(protocolVersion)) {
      try {
        Map<?, ?> init = (Map<?, ?>) Json.parse(wire.request(0L, Json.write(Map.of("jsonrpc", "2.0",
            "id", 0L, "method", McpSchema.METHOD_INITIALIZE, "params", Map.of(
                "protocolVersion", protocolVersion,
                "capabilities", Map.of(),
                "clientInfo", Map.of("name", "fusion-tester", "version", "0.0.0"))))));
        if (!(init.get("result") instanceof Map<?, ?>)) {
          throw new IllegalStateException("initialize failed: " + init.get("error"));
        }
        wire.notify(Json.write(Map.of("jsonrpc", "2.0",
            "method", McpSchema.METHOD_NOTIFICATION_INITIALIZED)));
      } catch (RuntimeException e) {
        wire.close();
        throw e;
      }
    }
    return new Started(server, wire);
  }

  private String flatName(FusionServer server, String router, String action) {
    if (separator != null) {
      return router + separator + action;
    }
    // The separator may come from a shared builder: find the one the server's tools use.
    for (String tool : server.toolNames()) {
      for (String sep : List.of("_", "-")) {
        if (tool.equals(router + sep + action)) {
          return tool;
        }
      }
    }
    return router + "_" + action;
  }
}
