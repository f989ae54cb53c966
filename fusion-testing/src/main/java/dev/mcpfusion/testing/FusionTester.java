package dev.mcpfusion.testing;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.EgressFilter;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.Root;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
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
  /** The stateless protocol version (no handshake; every request names it in {@code params._meta}). */
  public static final String MODERN = ProtocolVersions.MODERN;

  /** The protocol version the tester speaks unless told otherwise. */
  public static final String DEFAULT_VERSION = ProtocolVersions.LATEST_CLASSIC;

  private static final List<String> CLASSIC_VERSIONS = ProtocolVersions.CLASSIC;

  private final TesterSession session;

  private FusionTester(FusionServer.Builder builder) {
    this.session = new TesterSession(builder);
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
    session.separator(separator);
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
   * Who makes the calls from now on (before or between calls), as an HTTP authenticator would
   * vouch for it: handlers see it as {@code @Context Caller}, and lists and calls are filtered by
   * its scopes. Default: {@link Caller#local()}, which every scope check lets through.
   */
  public FusionTester caller(Caller caller) {
    session.caller(Objects.requireNonNull(caller, "caller"));
    return this;
  }

  /** Calls from now on come from the subject {@code "tester"} granted exactly {@code scopes}. */
  public FusionTester scopes(String... scopes) {
    return caller(Caller.of("tester", List.of(scopes)));
  }

  /**
   * A transport header every call carries, as an HTTP transport would pass it (it reaches
   * {@link RequestContext#headers()}); the in-memory transport has none otherwise.
   */
  public FusionTester header(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    session.header(name, value);
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
    session.protocolVersion(version);
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

  /** An egress filter, as {@code FusionServer.Builder.egressFilter}: it sees every message the server sends. */
  public FusionTester egressFilter(EgressFilter filter) {
    Objects.requireNonNull(filter, "filter");
    configure(b -> b.egressFilter(filter));
    return this;
  }

  // ---- the client's side: answers to the server's requests -------------------------------------

  /**
   * Declares the {@code sampling} capability and answers every {@code sampling/createMessage} with
   * {@code answer}: given the request's {@code params}, the result (a plain JSON tree:
   * {@code role}, {@code content}, {@code model}, {@code stopReason}). An exception thrown by
   * {@code answer} becomes the client's JSON-RPC error, with its message.
   */
  public FusionTester answerSampling(Function<Map<String, Object>, Map<String, Object>> answer) {
    Objects.requireNonNull(answer, "answer");
    session.answerSampling(answer);
    return this;
  }

  /** Answers every {@code sampling/createMessage} with the assistant text {@code text} (model {@code fusion-tester}). */
  public FusionTester answerSampling(String text) {
    Objects.requireNonNull(text, "text");
    return answerSampling(params -> Map.of("role", "assistant",
        "content", Map.of("type", "text", "text", text), "model", "fusion-tester", "stopReason", "endTurn"));
  }

  /**
   * Declares the {@code elicitation} capability and answers every {@code elicitation/create} with
   * {@code answer}: given the request's {@code params} ({@code message}, {@code requestedSchema}),
   * the result ({@code action} and, when accepting, {@code content}).
   */
  public FusionTester answerElicitation(Function<Map<String, Object>, Map<String, Object>> answer) {
    Objects.requireNonNull(answer, "answer");
    session.answerElicitation(answer);
    return this;
  }

  /** Accepts every form with {@code content} as the user's values (sent as they are, unchecked). */
  public FusionTester acceptElicitation(Map<String, ?> content) {
    Objects.requireNonNull(content, "content");
    return answerElicitation(params -> Map.of("action", "accept", "content", content));
  }

  /** Declines every form. */
  public FusionTester declineElicitation() {
    return answerElicitation(params -> Map.of("action", "decline"));
  }

  /** Cancels (dismisses) every form. */
  public FusionTester cancelElicitation() {
    return answerElicitation(params -> Map.of("action", "cancel"));
  }

  /**
   * Declares the {@code roots} capability and answers every {@code roots/list} with {@code roots}
   * (what {@code RequestContext.roots()} returns to a handler).
   */
  public FusionTester roots(Root... roots) {
    session.answerRoots(TesterSession.rootsAnswer(roots));
    return this;
  }

  /**
   * A request the server sent the client: its method and params (a plain JSON tree). In the
   * 2026-07-28 era, each of the {@code inputRequests} of an input-required result.
   */
  public record ClientRequest(String method, Map<String, Object> params) {}

  /** A {@code notifications/progress} the server sent. */
  public record Progress(Object token, Number progress, Number total, String message) {}

  /** A {@code notifications/message} (log message) the server sent. */
  public record LogMessage(String level, Object data) {}

  /** Every request the server sent the client so far (sampling, elicitation), in order. */
  public List<ClientRequest> clientRequests() {
    return ServerMessages.clientRequests(rawMessages());
  }

  /** Every progress notification the server sent so far, in order. */
  public List<Progress> progress() {
    return ServerMessages.progress(rawMessages());
  }

  /** Every log message the server sent the client so far, in order. */
  public List<LogMessage> logs() {
    return ServerMessages.logs(rawMessages());
  }

  /** Sends {@code logging/setLevel}: the least severe level the server may send (2025 eras). */
  public void setLogLevel(dev.mcpfusion.core.LogLevel level) {
    Objects.requireNonNull(level, "level");
    // No era _meta: logging/setLevel exists in the 2025 eras only.
    Map<?, ?> reply = (Map<?, ?>) Json.parse(session.request(JsonRpc.LOGGING_SET_LEVEL,
        new LinkedHashMap<>(Map.of("level", level.wire()))));
    if (!(reply.get("result") instanceof Map<?, ?>)) {
      throw new IllegalStateException("logging/setLevel failed: " + reply.get("error"));
    }
  }

  /**
   * Starts a raw {@code tools/call} on another thread and returns at once, so that a test can
   * cancel it or watch its notifications while it runs.
   */
  public PendingCall callAsync(String toolName, Map<String, ?> arguments, Map<String, ?> meta) {
    Objects.requireNonNull(toolName, "toolName");
    session.server();
    long id = session.nextId();
    return new PendingCall(session, id,
        session.requestAsync(id, JsonRpc.TOOLS_CALL, session.callParams(toolName, arguments, meta)));
  }

  private void configure(Consumer<FusionServer.Builder> option) {
    session.configure(option);
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
    FusionServer server = session.server();
    if (server.exposition() == Exposition.GROUPED) {
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
    return callTool(session.flatName(router, action), args);
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
    session.server();
    return ToolResult.fromReply(session.sendAnswering(JsonRpc.TOOLS_CALL,
        session.callParams(toolName, arguments, meta)));
  }

  /** Exactly the tools {@code tools/list} returns (all pages), in order, each as the client read it. */
  public List<ToolInfo> listTools() {
    return session.listTools();
  }

  // ---- prompts, resources, completions --------------------------------------------------------

  /** Sends {@code prompts/list} and returns its {@code prompts}, each a plain JSON tree. */
  public List<Map<String, Object>> listPrompts() {
    return session.listOf("prompts/list", "prompts");
  }

  /** Sends {@code resources/list} and returns its {@code resources}, each a plain JSON tree. */
  public List<Map<String, Object>> listResources() {
    return session.listOf("resources/list", "resources");
  }

  /** Sends {@code resources/templates/list} and returns its {@code resourceTemplates}. */
  public List<Map<String, Object>> listResourceTemplates() {
    return session.listOf("resources/templates/list", "resourceTemplates");
  }

  /** Sends {@code prompts/get} of {@code name} with {@code arguments} (strings) as given. */
  public PromptResponse getPrompt(String name, Map<String, ?> arguments) {
    Objects.requireNonNull(name, "name");
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", name);
    if (arguments != null) {
      params.put("arguments", arguments);
    }
    return new PromptResponse(session.sendAnswering("prompts/get", params));
  }

  /** Sends {@code resources/read} of {@code uri}. */
  public ResourceResponse readResource(String uri) {
    Objects.requireNonNull(uri, "uri");
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("uri", uri);
    return new ResourceResponse(session.sendAnswering("resources/read", params));
  }

  /** Sends {@code completion/complete} for argument {@code argument} of prompt {@code prompt}. */
  public CompletionResponse complete(String prompt, String argument, String value) {
    return new CompletionResponse(session.complete(
        Map.of("type", "ref/prompt", "name", prompt), argument, value, null));
  }

  /**
   * As {@link #complete(String, String, String)}, with the values the client already resolved for
   * the prompt's other arguments ({@code context.arguments}).
   */
  public CompletionResponse complete(String prompt, String argument, String value,
      Map<String, String> resolved) {
    Objects.requireNonNull(resolved, "resolved");
    return new CompletionResponse(session.complete(
        Map.of("type", "ref/prompt", "name", prompt), argument, value, resolved));
  }

  /** Sends {@code completion/complete} for variable {@code variable} of resource template {@code uriTemplate}. */
  public CompletionResponse completeResource(String uriTemplate, String variable, String value) {
    return new CompletionResponse(session.complete(
        Map.of("type", "ref/resource", "uri", uriTemplate), variable, value, null));
  }

  /**
   * As {@link #completeResource(String, String, String)}, with the values the client already
   * resolved for the template's other variables ({@code context.arguments}).
   */
  public CompletionResponse completeResource(String uriTemplate, String variable, String value,
      Map<String, String> resolved) {
    Objects.requireNonNull(resolved, "resolved");
    return new CompletionResponse(session.complete(
        Map.of("type", "ref/resource", "uri", uriTemplate), variable, value, resolved));
  }

  /**
   * Sends {@code resources/subscribe} for {@code uri} (a 2025 session only): a successful mutation
   * that invalidates the resource's router then sends {@code notifications/resources/updated},
   * captured by {@link #resourceUpdates()}.
   */
  public McpResponse subscribe(String uri) {
    return new McpResponse(session.send("resources/subscribe", new LinkedHashMap<>(Map.of("uri", uri))));
  }

  /**
   * Opens a 2026-07-28 {@code subscriptions/listen} stream for {@code uris} (with {@code meta} in
   * its {@code _meta}) and returns once it is acknowledged (or refused: its reply is then there);
   * its updates arrive as notifications ({@link #rawMessages()}, {@link #resourceUpdates()});
   * cancel it to end it.
   */
  public PendingCall listen(Map<String, ?> meta, String... uris) {
    return session.listen(meta, List.of(uris));
  }

  /** Sends {@code resources/unsubscribe} for {@code uri}. */
  public McpResponse unsubscribe(String uri) {
    return new McpResponse(session.send("resources/unsubscribe", new LinkedHashMap<>(Map.of("uri", uri))));
  }

  /**
   * Sends request {@code method} with {@code params} as the client would (the era's {@code _meta}
   * added; keys of a {@code _meta} in {@code params} win): for what the typed methods cannot
   * express, such as a malformed request a connector must answer with a clear error.
   */
  public McpResponse request(String method, Map<String, ?> params) {
    Objects.requireNonNull(method, "method");
    return new McpResponse(session.send(method, params == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>(params)));
  }

  /** The URI of every {@code notifications/resources/updated} received so far, in order. */
  public List<String> resourceUpdates() {
    return ServerMessages.resourceUpdates(rawMessages());
  }

  /** The JSON text of every message the server sent the client so far, in order (the handshake included). */
  public List<String> rawMessages() {
    return session.wire().serverToClient();
  }

  /** The JSON text of every message the client sent the server so far, in order. */
  public List<String> sentMessages() {
    return session.wire().clientToServer();
  }

  /** The server under test (built on first use). */
  public FusionServer server() {
    return session.server();
  }

  /** Closes the client, the server and the transport pair. Idempotent. */
  @Override
  public void close() {
    session.close();
  }
}
