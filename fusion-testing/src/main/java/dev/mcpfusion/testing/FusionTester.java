package dev.mcpfusion.testing;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.testing.internal.InProcessTransport;
import dev.mcpfusion.testing.internal.ReplyCapture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
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
 * Runs a connector through the real MCP server, in memory: the {@link FusionServer} behind the
 * SDK's server session, a real SDK client in front, and an in-process transport pair between them
 * that carries every message as JSON text (no sockets, no processes).
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
 * {@code FusionServer.build()} does), connects the client and runs the {@code initialize}
 * handshake. Calls may be made from several threads at once.
 */
public final class FusionTester implements AutoCloseable {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private final FusionServer.Builder builder;
  private final Object lock = new Object();
  private final ThreadLocal<ReplyCapture> currentCapture = new ThreadLocal<>();
  private String separator;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private volatile Started started;
  private volatile boolean closed;

  private record Started(FusionServer server, InProcessTransport pair, McpSyncServer mcpServer,
      McpSyncClient client) {}

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
    Map<String, Object> args = new LinkedHashMap<>();
    if (arguments != null) {
      args.putAll(arguments);
    }
    Map<String, Object> requestMeta = meta == null ? null : new LinkedHashMap<>(meta);
    ReplyCapture capture = new ReplyCapture(McpSchema.METHOD_TOOLS_CALL);
    currentCapture.set(capture);
    try {
      McpSchema.CallToolResult result = s.client().callTool(new McpSchema.CallToolRequest(toolName, args, requestMeta));
      return ToolResult.of(result, capture.raw());
    } catch (McpError e) {
      if (capture.raw() != null) {
        return ToolResult.fromReply(capture.raw());
      }
      McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
      if (error == null) {
        throw e;
      }
      return ToolResult.ofJsonRpcError(
          new ToolResult.JsonRpcError(error.code(), error.message(), error.data()), null);
    } finally {
      currentCapture.remove();
    }
  }

  /** Exactly the tools {@code tools/list} returns (all pages), in order. */
  public List<McpSchema.Tool> listTools() {
    McpSyncClient client = start().client();
    List<McpSchema.Tool> tools = new ArrayList<>();
    McpSchema.ListToolsResult page = client.listTools();
    tools.addAll(page.tools());
    while (page.nextCursor() != null) {
      page = client.listTools(page.nextCursor());
      tools.addAll(page.tools());
    }
    return List.copyOf(tools);
  }

  /** The JSON text of every message the server sent the client so far, in order (the handshake included). */
  public List<String> rawMessages() {
    return start().pair().serverToClient();
  }

  /** The JSON text of every message the client sent the server so far, in order. */
  public List<String> sentMessages() {
    return start().pair().clientToServer();
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
    RuntimeException failure = null;
    try {
      s.client().closeGracefully();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      s.mcpServer().closeGracefully();
    } catch (RuntimeException e) {
      failure = failure == null ? e : failure;
    }
    s.pair().close();
    if (failure != null) {
      throw failure;
    }
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
    Map<String, String> edgeHeaders = Map.copyOf(headers);
    InProcessTransport pair = new InProcessTransport(server.jsonMapper(),
        message -> server.intercept(message, edgeHeaders));
    McpSyncServer mcpServer = server.connect(pair.serverSide());
    McpSyncClient client = McpClient.sync(pair.clientSide())
        .clientInfo(new McpSchema.Implementation("fusion-tester", "0.0.0"))
        .requestTimeout(REQUEST_TIMEOUT)
        .initializationTimeout(REQUEST_TIMEOUT)
        .transportContextProvider(this::transportContext)
        .build();
    try {
      McpSchema.InitializeResult init = client.initialize();
      Map<String, Object> context = new LinkedHashMap<>();
      context.put(FusionServer.TRANSPORT_PROTOCOL_VERSION, init.protocolVersion());
      if (!headers.isEmpty()) {
        context.put(FusionServer.TRANSPORT_HEADERS, Map.copyOf(headers));
      }
      pair.serverContext(McpTransportContext.create(context));
    } catch (RuntimeException e) {
      client.close();
      mcpServer.close();
      pair.close();
      throw e;
    }
    return new Started(server, pair, mcpServer, client);
  }

  private McpTransportContext transportContext() {
    ReplyCapture capture = currentCapture.get();
    return capture == null ? McpTransportContext.EMPTY : capture.asTransportContext();
  }

  private String flatName(FusionServer server, String router, String action) {
    if (separator != null) {
      return router + separator + action;
    }
    // The separator may come from a shared builder: find the one the server's tools use.
    for (McpSchema.Tool tool : server.tools()) {
      for (String sep : List.of("_", "-")) {
        if (tool.name().equals(router + sep + action)) {
          return tool.name();
        }
      }
    }
    return router + "_" + action;
  }
}
