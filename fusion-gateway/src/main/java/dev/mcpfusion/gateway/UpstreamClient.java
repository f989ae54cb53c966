package dev.mcpfusion.gateway;

import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's MCP client for one upstream: it opens the session ({@code initialize} within the
 * connect timeout), lists the tools, and forwards calls within the call timeout. A session that
 * broke (a process that exited, an HTTP session the upstream forgot) is opened again at the next
 * call, so an upstream that comes back is used again without a restart of the gateway.
 */
final class UpstreamClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UpstreamClient.class);
  /** How many pages of {@code tools/list} are read before the upstream is taken to loop. */
  private static final int MAX_TOOL_PAGES = 100;

  private final String name;
  private final List<String> command;
  private final URI url;
  private final Map<String, String> headers;
  private final Map<String, String> environment;
  private final Path directory;
  private final Duration connectTimeout;
  private final Duration callTimeout;
  private Connection connection;

  private UpstreamClient(String name, List<String> command, URI url, Map<String, String> headers,
      Map<String, String> environment, Path directory, Duration connectTimeout,
      Duration callTimeout) {
    this.name = name;
    this.command = command;
    this.url = url;
    this.headers = headers;
    this.environment = environment;
    this.directory = directory;
    this.connectTimeout = connectTimeout;
    this.callTimeout = callTimeout;
  }

  static UpstreamClient stdio(String name, List<String> command, Map<String, String> environment,
      Path directory, Duration connectTimeout, Duration callTimeout) {
    return new UpstreamClient(name, List.copyOf(command), null, Map.of(), Map.copyOf(environment),
        directory, connectTimeout, callTimeout);
  }

  static UpstreamClient http(String name, URI url, Map<String, String> headers,
      Duration connectTimeout, Duration callTimeout) {
    return new UpstreamClient(name, null, url, Map.copyOf(headers), Map.of(), null, connectTimeout,
        callTimeout);
  }

  String name() {
    return name;
  }

  Duration callTimeout() {
    return callTimeout;
  }

  /** The open session, opened now when there is none or it broke. */
  synchronized Connection connection() {
    if (connection != null && connection.alive()) {
      return connection;
    }
    if (connection != null) {
      connection.close();
      connection = null;
    }
    Connection opened = command != null
        ? StdioConnection.start(name, command, directory, environment)
        : new HttpConnection(name, url, headers, connectTimeout);
    try {
      initialize(opened);
    } catch (UpstreamFailure e) {
      opened.close();
      throw e.kind() == UpstreamFailure.Kind.TIMEOUT
          ? new UpstreamFailure(UpstreamFailure.Kind.UNAVAILABLE, "The upstream " + name
              + " did not complete its handshake within " + Durations.words(connectTimeout) + ".", e)
          : e;
    }
    connection = opened;
    return opened;
  }

  private void initialize(Connection opened) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("protocolVersion", ProtocolVersions.LATEST_CLASSIC);
    // No client capability: the gateway does not forward sampling, elicitation or roots.
    params.put("capabilities", Map.of());
    params.put("clientInfo", Map.of("name", "mcp-fusion-gateway", "version", Gateway.VERSION));
    Map<String, Object> result = result(opened.request(JsonRpc.INITIALIZE, params, Map.of(),
        connectTimeout), JsonRpc.INITIALIZE);
    Object version = result.get("protocolVersion");
    if (!(version instanceof String agreed) || !ProtocolVersions.CLASSIC.contains(agreed)) {
      throw UpstreamFailure.unavailable("The upstream " + name
          + " speaks a protocol version the gateway does not.");
    }
    if (opened instanceof HttpConnection http) {
      http.protocolVersion(agreed);
    }
    opened.notify(JsonRpc.INITIALIZED, null);
  }

  /** Every tool the upstream lists, page after page. */
  List<Map<String, Object>> listTools() {
    List<Map<String, Object>> tools = new ArrayList<>();
    String cursor = null;
    for (int page = 0; page < MAX_TOOL_PAGES; page++) {
      Map<String, Object> params = new LinkedHashMap<>();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      Map<String, Object> result = result(connection().request(JsonRpc.TOOLS_LIST, params, Map.of(),
          connectTimeout), JsonRpc.TOOLS_LIST);
      if (result.get("tools") instanceof List<?> listed) {
        for (Object tool : listed) {
          if (tool instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> entry = (Map<String, Object>) map;
            tools.add(entry);
          }
        }
      }
      if (!(result.get("nextCursor") instanceof String next) || next.isEmpty()) {
        return tools;
      }
      cursor = next;
    }
    throw UpstreamFailure.unavailable("The upstream " + name + " lists tools without end.");
  }

  /**
   * Calls {@code tool} and returns the whole response message: its {@code result} is the tool's
   * result (possibly {@code isError}); its {@code error} a JSON-RPC refusal.
   *
   * @param headers HTTP headers for this call (trace context), ignored over stdio
   */
  Map<String, Object> call(String tool, Map<String, ?> arguments, Map<String, Object> meta,
      Map<String, String> headers) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", tool);
    params.put("arguments", arguments);
    if (!meta.isEmpty()) {
      params.put("_meta", meta);
    }
    try {
      return connection().request(JsonRpc.TOOLS_CALL, params, headers, callTimeout);
    } catch (UpstreamFailure e) {
      if (e.kind() != UpstreamFailure.Kind.SESSION_LOST) {
        throw e;
      }
      // The upstream refused the session before running the call: a new session, sent once more.
      LOG.info("upstream {}: session ended upstream; opening a new one", name);
      return connection().request(JsonRpc.TOOLS_CALL, params, headers, callTimeout);
    }
  }

  private Map<String, Object> result(Map<String, Object> response, String method) {
    if (response.get("result") instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> result = (Map<String, Object>) map;
      return result;
    }
    LOG.warn("upstream {}: {} was refused: {}", name, method, response.get("error"));
    throw UpstreamFailure.unavailable("The upstream " + name + " refused the gateway's " + method
        + " request.");
  }

  /** How many requests wait for a stdio upstream's response (tests). */
  synchronized int waiting() {
    return connection instanceof StdioConnection stdio ? stdio.waiting() : 0;
  }

  /** The stdio child process, or {@code null} (for tests). */
  synchronized Process process() {
    return connection instanceof StdioConnection stdio ? stdio.process() : null;
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      connection.close();
      connection = null;
    }
  }
}
