package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.ToolRegistry;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 2024-11-05 … 2025-11-25 lifecycle the edge answers besides calls, prompts, resources and
 * completions: {@code initialize} (version negotiation, capabilities, {@code serverInfo}),
 * {@code tools/list}, and "method not found" for any other request. Its answers are the bytes the
 * MCP Java SDK's classic server wrote for the same requests (members in the same order, absent ones
 * left out), built from plain maps once, so serving a 2025 client loads no SDK server, no reactive
 * stack and no schema validator.
 *
 * <p>Immutable and thread-safe; one per edge.
 */
final class ClassicEra {
  private final Map<String, Object> capabilities;
  private final Map<String, Object> serverInfo;
  private final ToolRegistry registry;
  /** The {@code tools/list} result, built on the first {@code tools/list}. */
  private volatile Map<String, Object> toolList;

  ClassicEra(String name, String version, ToolRegistry registry, FeatureRegistry features,
      boolean toolsChange) {
    this.registry = registry;
    this.capabilities = capabilities(features, toolsChange);
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("name", name);
    info.put("version", version);
    this.serverInfo = info;
  }

  /** The saved form of an initialised session ({@link Edge#sessionState}). */
  SessionState state(EdgeSession session) {
    String version = session.protocolVersion();
    if (version == null) {
      throw new IllegalStateException("Session " + session.id() + " has not been initialised");
    }
    Map<?, ?> info = session.clientInfo();
    return new SessionState(session.id(), version, Json.write(session.clientCapabilities()),
        info == null ? null : Json.write(info), session.logLevel().wire());
  }

  /** A session another process initialised, opened here from its saved form, ready to serve. */
  EdgeSession resume(Sink out, SessionState state, FusionMeter meter) {
    EdgeSession session = new EdgeSession(out, meter, state.id());
    LogLevel level = LogLevel.fromWire(state.logLevel());
    session.resume(state.protocolVersion(), (Map<?, ?>) Json.parse(state.clientCapabilities()),
        state.clientInfo() == null ? null : (Map<?, ?>) Json.parse(state.clientInfo()),
        level == null ? LogLevel.INFO : level);
    return session;
  }

  /**
   * What {@code initialize} advertises: tools and logging, and — when the server has them, answered
   * by the edge — completions, prompts, and resources with subscriptions (in the order the
   * protocol's schema lists them, as the SDK wrote them); {@code tools.listChanged} is true when
   * {@code toolsChange} (some router has workflow states, so a session's list changes).
   */
  private static Map<String, Object> capabilities(FeatureRegistry features, boolean toolsChange) {
    Map<String, Object> capabilities = new LinkedHashMap<>();
    if (features.hasPrompts() || features.hasResources()) {
      capabilities.put("completions", Map.of());
    }
    capabilities.put("logging", Map.of());
    if (features.hasPrompts()) {
      capabilities.put("prompts", Map.of("listChanged", false));
    }
    if (features.hasResources()) {
      Map<String, Object> resources = new LinkedHashMap<>();
      resources.put("subscribe", true);
      resources.put("listChanged", false);
      capabilities.put("resources", resources);
    }
    capabilities.put("tools", Map.of("listChanged", toolsChange));
    return capabilities;
  }

  /**
   * Why the params of an {@code initialize} request cannot be read, or {@code null} when they can:
   * they must be an object, and its {@code capabilities} and {@code clientInfo}, when present,
   * objects too. (The protocol version is negotiated whatever it is.)
   */
  static String unreadableInitialize(Message message) {
    Object params = message.tree().get("params");
    if (!(params instanceof Map<?, ?> map)) {
      return "Invalid params: initialize needs params, an object with \"protocolVersion\", "
          + "\"capabilities\" and \"clientInfo\".";
    }
    for (String member : List.of("capabilities", "clientInfo")) {
      Object value = map.get(member);
      if (value != null && !(value instanceof Map<?, ?>)) {
        return "Invalid params: " + Echo.quoted(member) + " of initialize must be an object.";
      }
    }
    return null;
  }

  /**
   * The version this server answers a client asking for {@code requested} with: that version when
   * it speaks it, else the newest it speaks (the client then decides whether to go on).
   */
  static String negotiate(Object requested) {
    return ProtocolVersions.isClassic(requested) ? (String) requested : ProtocolVersions.LATEST_CLASSIC;
  }

  /**
   * Answers {@code initialize}: remembers the client's capabilities, negotiates the version (the
   * one asked for when this server speaks it, else its newest) and answers the server's
   * capabilities and {@code serverInfo}. Another {@code initialize} on the same session is answered
   * the same way.
   */
  void initialize(Message message, EdgeSession session, Sink out) {
    String unreadable = unreadableInitialize(message);
    if (unreadable != null) {
      out.reply(message.id(), JsonRpc.INVALID_PARAMS,
          Bodies.error(message.id(), JsonRpc.INVALID_PARAMS, unreadable));
      return;
    }
    Map<?, ?> params = message.params();
    session.client(params);
    session.initializing(message.id());
    String version = negotiate(params.get("protocolVersion"));
    session.answered(message.id(), version);
    out.reply(message.id(), 0, Bodies.result(message.id(), initializeResult(version)));
  }

  /** The {@code initialize} result for the negotiated {@code version}. */
  Map<String, Object> initializeResult(String version) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("protocolVersion", version);
    result.put("capabilities", capabilities);
    result.put("serverInfo", serverInfo);
    return result;
  }

  /** The {@code tools/list} result: every tool, in the registry's order. */
  Map<String, Object> toolList() {
    Map<String, Object> list = toolList;
    if (list == null) {
      List<Object> tools = new ArrayList<>();
      for (var tool : registry.tools()) {
        tools.add(ToolEntries.entry(tool.tool()));
      }
      list = Map.of("tools", List.copyOf(tools));
      toolList = list;
    }
    return list;
  }

  /** The error for a request no one answers: "method not found", naming it (as the SDK did). */
  static byte[] methodNotFound(Message message) {
    return Bodies.sdkError(message.id(), JsonRpc.METHOD_NOT_FOUND,
        "Method not found: " + message.method(), null);
  }
}
