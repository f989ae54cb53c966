package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Gates;
import dev.mcpfusion.wire.input.RequestStates;
import dev.mcpfusion.core.server.ExposedTool;
import dev.mcpfusion.core.server.FeatureCalls;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.Pipeline;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.surface.Surfaces;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.Observed;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.McpHeaders;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.wire.Reply;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front door: everything between "a JSON-RPC message arrived" and "a pipeline call or a
 * JSON-RPC reply", for every transport and both protocol eras. Transports only frame bytes (and
 * HTTP maps statuses); the edge
 *
 * <ul>
 *   <li>parses each message once, with limits, and checks its envelope ({@link #read});
 *   <li>answers {@code ping} at any time, and a request before {@code initialize} at once;
 *   <li>routes the era (2026-07-28 requests carry their protocol version in {@code params._meta});
 *   <li>answers {@code tools/call} of both eras itself: checks the params, looks the tool up once,
 *       runs the pipeline once and writes the era's result straight from the {@code Reply};
 *   <li>answers prompts, resources and completions of both eras itself, and resource
 *       subscriptions of the classic era ({@link FeatureRequests});
 *   <li>answers the rest of the 2025 lifecycle itself ({@code initialize}, {@code tools/list},
 *       {@code logging/setLevel}, notifications: {@link ClassicEra});
 *   <li>hands the rest of the 2026-07-28 era to the SDK's modern server ({@link ModernEra});
 *   <li>writes every error body, and logs every exception it catches (never on the wire).
 * </ul>
 *
 * <p>Every request with a usable id gets exactly one reply — except a call the client cancelled
 * ({@code notifications/cancelled}), which gets none, as the protocol requires.
 *
 * <p>Thread-safe; one per {@code FusionServer}.
 */
public final class Edge {
  private static final Logger LOG = LoggerFactory.getLogger(Edge.class);

  private final MessageReader reader;
  private final ToolCalls tools;
  private final ClassicEra classic;
  private final ModernEra modern;
  private final FeatureRequests features;
  private final ToolCallRequests toolCalls;
  private final ScopedTools scoped;
  private final TaskCalls tasks;
  /** The server's observer: a span and a duration for each message no narrower path traces. */
  private final FusionTracer observer;
  private final FusionMeter meter;
  private final InputRequired input;

  /**
   * An edge in front of {@code pipeline} that also serves the prompts, resources and completions
   * of {@code features}, keeps the tasks of the {@code @TaskSupport} actions as {@code taskOptions}
   * says ({@code null}: {@link TaskOptions#defaults()}), and whose 2026-07-28 input-required results
   * carry request states sealed and opened by {@code states} (the same key on every instance lets
   * any of them complete a retry), and shows each request the tools {@code surfaces} allows it;
   * see {@link ListenStreams} for {@code maxListenStreams} and {@code listenHeartbeat}.
   *
   * @param name the server name ({@code serverInfo})
   * @param version the server version
   */
  public Edge(String name, String version, ToolRegistry registry, FeatureRegistry features,
      Pipeline pipeline, FusionTracer tracer, TaskOptions taskOptions, RequestStates states,
      int maxListenStreams, java.time.Duration listenHeartbeat, Surfaces surfaces) {
    this.reader = new MessageReader();
    this.tools = new ToolCalls(registry, pipeline, tracer == null ? FusionTracer.NOOP : tracer);
    this.observer = this.tools.tracer();
    this.meter = Observed.meterOf(observer);
    this.classic = new ClassicEra(name, version, registry, features, surfaces.gated());
    this.modern = new ModernEra(name, version, tools, features);
    // Every 2026-07-28 result names the server in its _meta (the SDK's modern server does the same).
    String serverInfo = Bodies.serverInfoMember(name, version);
    this.features = new FeatureRequests(new FeatureCalls(features, registry, pipeline.egress(),
        pipeline.deadlines(), this.tools.tracer()), serverInfo, this.tools.tracer(),
        maxListenStreams, listenHeartbeat);
    this.scoped = new ScopedTools(registry, features, surfaces);
    this.tasks = new TaskCalls(tools, this.features, serverInfo, taskOptions);
    if (tasks.enabled()) {
      modern.extension(Meta.TASKS_EXTENSION);
    }
    this.input = new InputRequired(states, serverInfo);
    this.toolCalls = new ToolCallRequests(tools, this.features, input, (id, reply, modernEra) -> modernEra
        ? Bodies.modernToolResult(id, reply, serverInfo)
        : Bodies.classicToolResult(id, reply), tasks, scoped);
  }

  /** Parses one message (UTF-8 JSON) and checks its envelope. Never throws. */
  public Message read(byte[] json) {
    return reader.read(json);
  }

  /** Parses the first {@code length} bytes of {@code json} as one message. Never throws. */
  public Message read(byte[] json, int length) {
    return reader.read(json, length);
  }

  /** Parses one message and checks its envelope. Never throws. */
  public Message read(String json) {
    return reader.read(json);
  }

  /**
   * The message for one that exceeded the transport's size limit, which is never parsed whole:
   * an {@link Message.Kind#INVALID} message that carries the id when a streaming scan of the top
   * level of its first {@code length} bytes finds it.
   */
  public Message oversized(byte[] prefix, int length, long limit) {
    return reader.oversized(prefix, length, limit);
  }

  /** How many messages this edge has parsed (each message once). */
  public long messagesParsed() {
    return reader.parsed();
  }

  /**
   * Opens the edge's state of one client connection, whose replies and server messages go to
   * {@code out}. A call runs on the thread that dispatches it; a transport that reads many messages
   * on one thread dispatches those that {@link #runsCall} off its reading path.
   */
  public EdgeSession openSession(Sink out) {
    return features.track(new EdgeSession(out, meter));
  }

  /** Shares the 2025-era subscriptions with other instances through {@code bus}, before any session. */
  public void shareSubscriptions(dev.mcpfusion.core.SubscriptionBus bus) {
    features.share(bus);
  }

  /** What another process needs to serve {@code session}, an initialised 2025-era session. */
  public SessionState sessionState(EdgeSession session) {
    return classic.state(session);
  }

  /** Opens here a session another process initialised and saved as {@code state}, ready for use. */
  public EdgeSession resumeSession(Sink out, SessionState state) {
    return features.track(classic.resume(out, state, meter));
  }

  /** Reads one message and dispatches it (the whole edge, for a transport with nothing to decide). */
  public void receive(String json, Inbound inbound, EdgeSession session) {
    dispatch(read(json), inbound, session, session.out());
  }

  /**
   * Answers {@code message}: replies, notifications and server requests go to {@code out}.
   *
   * @param session the connection's state; {@code null} for a stateless transport (2026-07-28 over
   *     HTTP), which then serves only 2026-07-28 requests and {@code ping}
   */
  public void dispatch(Message message, Inbound inbound, EdgeSession session, Sink out) {
    if (observer != FusionTracer.NOOP && MessageTraces.tracedByTarget(message, features)) {
      answer(message, inbound, session,
          MessageTraces.untargeted(observer, out, message, inbound, session));
      return;
    }
    RequestTrace trace = observer == FusionTracer.NOOP ? RequestTrace.OFF
        : MessageTraces.start(observer, message, inbound, session);
    if (trace != RequestTrace.OFF) {
      out = MessageTraces.watch(out, message, session, trace);
    }
    try {
      answer(message, inbound, session, out);
    } finally {
      if (trace != RequestTrace.OFF) {
        MessageTraces.dispatched(message, session, trace);
      }
    }
  }

  private void answer(Message message, Inbound inbound, EdgeSession session, Sink out) {
    if (session != null && meter != FusionMeter.NOOP) {
      session.transport(inbound.networkTransport());
    }
    try {
      switch (message.kind()) {
        case INVALID -> out.reply(message.id(), message.errorCode(),
            Bodies.error(message.id(), message.errorCode(), message.errorMessage()));
        case REQUEST -> request(message, inbound, session, out);
        case NOTIFICATION -> notification(message, inbound, session);
        case RESPONSE -> {
          // The answer to a request a handler sent the client (sampling, elicitation); the server
          // sends no other request, so any other response answers nothing and is dropped.
          if (session == null || !session.answer(message.id(), message.tree())) {
            LOG.debug("Dropped {}: no request of this server waits for it", message);
          }
        }
      }
    } catch (RuntimeException | Error e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("The edge failed on {} over {} (incident {})", message, inbound.transport(), incident, e);
      if (message.kind() == Message.Kind.REQUEST) {
        out.reply(message.id(), JsonRpc.INTERNAL_ERROR,
            Bodies.error(message.id(), JsonRpc.INTERNAL_ERROR, "Internal error (incident " + incident + ")."));
      }
    }
  }

  /**
   * Whether dispatching {@code message} runs a call (a {@code tools/call} of either era, or a
   * 2026-07-28 request), which may take as long as the handler does. A transport that reads many
   * messages on one thread dispatches such a message off its reading path; every other message is
   * quick, and must be dispatched in the order it arrived (the handshake, notifications).
   */
  public boolean runsCall(Message message, Inbound inbound) {
    return message.kind() == Message.Kind.REQUEST
        && (JsonRpc.TOOLS_CALL.equals(message.method()) || isModern(message, inbound)
            || features.runsUserCode(message.method()));
  }

  /**
   * Whether dispatching {@code message} never waits: it runs no call, or calls a stage-returning
   * or {@code @NonBlocking} action behind no queue, on a server without task actions.
   */
  public boolean neverWaits(Message message, Inbound inbound) {
    return !runsCall(message, inbound) || (!tasks.enabled() && tools.neverWaits(message));
  }

  /** Whether {@code message} belongs to the 2026-07-28 era, given what the transport says too. */
  public static boolean isModern(Message message, Inbound inbound) {
    if (message.isModern()) {
      return true;
    }
    String header = inbound.header("mcp-protocol-version");
    return header != null && ProtocolVersions.MODERN.equals(header.trim());
  }

  private void request(Message message, Inbound inbound, EdgeSession session, Sink out) {
    if (JsonRpc.PING.equals(message.method()) && !message.isModern()) {
      // At any time in the 2025 era: a liveness probe must never wait for a handshake. (2026-07-28
      // removed ping: its server answers "method not found".)
      out.reply(message.id(), 0, Bodies.result(message.id(), Map.of()));
      return;
    }
    if (isModern(message, inbound)) {
      String unnamed = ModernEra.unnamedVersion(message);
      if (unnamed != null) {
        // The era may come from the HTTP header alone, but the request must still name its
        // version: the schema requires it, and the header is checked against it.
        out.reply(message.id(), JsonRpc.INVALID_PARAMS,
            Bodies.error(message.id(), JsonRpc.INVALID_PARAMS, unnamed));
        return;
      }
      String version = (String) message.metaProtocolVersion();
      if (!ModernEra.SUPPORTED.contains(version)) {
        // As the SDK's modern server answers it, with the version it names cut when long.
        out.reply(message.id(), JsonRpc.UNSUPPORTED_PROTOCOL_VERSION, Bodies.error(message.id(),
            JsonRpc.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
            Map.of("supported", ModernEra.SUPPORTED, "requested", Echo.cut(version))));
        return;
      }
      if (JsonRpc.TOOLS_CALL.equals(message.method())) {
        toolCalls.toolCall(message, inbound, session, out, true);
      } else if (scopedList(message, inbound, session, out, true)) {
        return;
      } else if (features.handlesModern(message.method())) {
        features.request(message, inbound, session, out, true, input);
      } else if (tasks.handles(message.method())) {
        RequestRunner.run(message, session, (sink, call) -> tasks.answer(message, inbound, sink), out);
      } else if (!unknownLongMethod(message, out)) {
        RequestRunner.run(message, session, (sink, call) -> modern.answer(message, sink), out);
      }
      return;
    }
    if (session == null) {
      out.reply(message.id(), JsonRpc.INVALID_REQUEST, Bodies.error(message.id(), JsonRpc.INVALID_REQUEST,
          "Invalid Request: this endpoint has no session for a 2025 request; send initialize first."));
      return;
    }
    if (JsonRpc.INITIALIZE.equals(message.method())) {
      classic.initialize(message, session, out);
      return;
    }
    if (session.state() == EdgeSession.NEW) {
      out.reply(message.id(), JsonRpc.INVALID_REQUEST, Bodies.error(message.id(), JsonRpc.INVALID_REQUEST,
          "Invalid Request: the session is not initialized; send initialize first, then "
              + "notifications/initialized, then " + Echo.quoted(message.method()) + "."));
      return;
    }
    if (JsonRpc.TOOLS_CALL.equals(message.method())) {
      toolCalls.toolCall(message, inbound, session, out, false);
      return;
    }
    if (features.handles(message.method())) {
      features.request(message, inbound, session, out, false, input);
      return;
    }
    if (scopedList(message, inbound, session, out, false)) {
      return;
    }
    if (JsonRpc.LOGGING_SET_LEVEL.equals(message.method())) {
      // Handlers log through the edge, so the edge keeps the level.
      Map<?, ?> params = message.params();
      LogLevel level = LogLevel.fromWire(params == null ? null : params.get("level"));
      if (level == null) {
        out.reply(message.id(), JsonRpc.INVALID_PARAMS, Bodies.error(message.id(), JsonRpc.INVALID_PARAMS,
            "Invalid params: \"level\" must be one of debug, info, notice, warning, error, critical, "
                + "alert, emergency."));
        return;
      }
      session.logLevel(level);
      out.reply(message.id(), 0, Bodies.result(message.id(), Map.of()));
      return;
    }
    if (session.state() == EdgeSession.INITIALIZING && session.ready()) {
      // initialize was answered but notifications/initialized never came: waiting for it would
      // leave the client waiting for ever. Its request implies it.
      LOG.debug("Session {}: {} before notifications/initialized; taking it as initialized",
          session.id(), message.method());
    }
    if (JsonRpc.TOOLS_LIST.equals(message.method())) {
      out.reply(message.id(), 0, Bodies.result(message.id(), classic.toolList()));
      return;
    }
    if (!unknownLongMethod(message, out)) {
      out.reply(message.id(), JsonRpc.METHOD_NOT_FOUND, ClassicEra.methodNotFound(message));
    }
  }

  /** Answers {@code tools/list} when something narrows the request's view ({@link ScopedTools}). */
  private boolean scopedList(Message message, Inbound inbound, EdgeSession session, Sink out,
      boolean modernEra) {
    ScopedTools.View view = JsonRpc.TOOLS_LIST.equals(message.method())
        ? scoped.view(inbound, session, modernEra) : null;
    if (view == null || !scoped.filters(inbound.caller(), view)) {
      return false;
    }
    out.reply(message.id(), 0,
        features.listResult(message.id(), scoped.list(inbound.caller(), view), modernEra));
    return true;
  }

  /**
   * The scopes the caller of {@code inbound} lacks for {@code message} (a call, get, read,
   * subscribe or completion of something with {@code @Scopes}); empty for every other message. A
   * transport that can say so in its own terms (HTTP: {@code 403 insufficient_scope}) asks before
   * dispatching; elsewhere the pipeline answers a {@code FORBIDDEN} envelope.
   */
  public java.util.List<String> missingScopes(Message message, Inbound inbound) {
    return scoped.missing(message, inbound);
  }

  /**
   * Answers a request whose method name is longer than any method could be with "method not
   * found", naming it cut, before the SDK would repeat it whole; false for any other request.
   */
  private static boolean unknownLongMethod(Message message, Sink out) {
    if (!Echo.isLong(message.method())) {
      return false;
    }
    out.reply(message.id(), JsonRpc.METHOD_NOT_FOUND, Bodies.error(message.id(),
        JsonRpc.METHOD_NOT_FOUND, "Method not found: " + Echo.quoted(message.method()) + "."));
    return true;
  }

  private void notification(Message message, Inbound inbound, EdgeSession session) {
    if ("notifications/cancelled".equals(message.method())) {
      Map<?, ?> params = message.params();
      Object requestId = params == null ? null : params.get("requestId");
      if (session != null && requestId != null && session.cancel(requestId)) {
        return;
      }
    }
    if (session == null || isModern(message, inbound)) {
      return; // a stateless era has no notification to act on besides cancellation
    }
    if (JsonRpc.INITIALIZED.equals(message.method()) && session.state() != EdgeSession.NEW) {
      session.ready();
    }
    // Other notifications (roots/list_changed, progress, unknown ones) ask nothing of this server.
  }

  /**
   * Whether a call's reply may be written from another thread, before its dispatch returns (a
   * deadline) or after (an async action): a transport must then let it go out when it arrives.
   */
  public boolean repliesEarly() {
    return tools.registry().hasDeadlines() || features.registry().hasDeadlines();
  }

  /** Whether {@code message} is answered after its dispatch returns (a call of an async action). */
  public boolean repliesLater(Message message) {
    return tools.repliesLater(message);
  }

  /**
   * The most calls the server's concurrency gates admit at once (running and waiting; a gate that
   * tools and prompts share counted once), or {@link Integer#MAX_VALUE} when some action, prompt,
   * resource or completion method is not gated: a transport that gives each call a thread of its
   * own needs at most this many (plus the one that reads).
   */
  public int callCapacity() {
    FeatureRegistry served = features.registry();
    if (tools.registry().callCapacity() == Integer.MAX_VALUE || served.anyUngated()) {
      return Integer.MAX_VALUE;
    }
    java.util.List<ConcurrencyGate> gates = new java.util.ArrayList<>(tools.registry().gates());
    gates.addAll(served.gates());
    return Gates.capacity(gates);
  }

  static String protocolVersion(Inbound inbound, EdgeSession session) {
    String header = inbound.header("mcp-protocol-version");
    return header != null ? header.trim() : session == null ? null : session.protocolVersion();
  }

  /**
   * Runs one {@code tools/call} through the same handler, without a transport (tests, in-memory
   * use): the tool looked up once, the pipeline run once.
   *
   * @throws IllegalArgumentException for an unknown tool, with the {@code UNKNOWN_TOOL} text
   */
  public Reply call(String toolName, Map<String, ?> arguments, RequestContext request) {
    RequestContext context = request == null ? RequestContext.empty() : request;
    ExposedTool tool = tools.find(toolName);
    if (tool == null) {
      tools.traceUnknown(toolName, context, arguments);
      throw new IllegalArgumentException(
          ErrorReplies.unknownToolMessage(toolName, tools.registry().toolNames()));
    }
    return tools.call(tool, arguments == null ? Map.of() : arguments, context);
  }

  /** Per tool that marks any, the arguments it mirrors in custom headers ({@link McpHeaders#paramHeaders}). */
  public Map<String, Map<String, String>> paramHeaders() {
    Map<String, Map<String, String>> byTool = new java.util.HashMap<>();
    tools().forEach(t -> byTool.put(t.name(), McpHeaders.paramHeaders(t.inputSchema())));
    byTool.values().removeIf(Map::isEmpty);
    return byTool;
  }

  /** The tools, exactly what {@code tools/list} returns, in the SDK's classic types. */
  public java.util.List<McpSchema.Tool> tools() {
    return tools.registry().mcpTools();
  }

  /** The server's observer ({@link FusionTracer#NOOP} when it neither traces nor meters). */
  FusionTracer observer() {
    return observer;
  }

  /** The 2026-07-28 {@code subscriptions/listen} streams: how many are open; ending them all. */
  public ListenStreams listenStreams() {
    return features.listens();
  }

  ModernEra modernEra() {
    return modern;
  }

  /** Whether the 2026-07-28 server has been built (it is built on the first request that needs it). */
  public boolean modernStarted() {
    return modern.started();
  }

  /** Ends every listen stream with its result and stops the tasks' executor, if it was started. */
  public void close() {
    features.listens().close();
    tasks.close();
  }

  /** How a tool's result becomes the bytes of its JSON-RPC response. */
  @FunctionalInterface
  interface ResultWriter {
    byte[] write(Object id, Reply reply, boolean modernEra);
  }

  /** Replaces the result writer (tests of the unwritable-result rule only). */
  void resultWriter(ResultWriter writer) {
    toolCalls.resultWriter(writer);
  }

  /**
   * A request id as a map key: 1, 1L and 1.0 name the same request, "1" another one (a transport
   * that matches replies to requests by id uses the same rule as the edge).
   */
  public static Object idKey(Object id) {
    return dev.mcpfusion.core.guard.KeyedGate.key(id); // the rule @SerializeOn's keys follow too
  }
}
