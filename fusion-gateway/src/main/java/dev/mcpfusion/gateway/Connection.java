package dev.mcpfusion.gateway;

import java.time.Duration;
import java.util.Map;

/**
 * One open MCP session to an upstream, as JSON-RPC messages: a request answered by its response,
 * a notification answered by nothing. Implementations are thread-safe: calls overlap.
 */
interface Connection extends AutoCloseable {
  /**
   * Sends request {@code method} and waits at most {@code timeout} for its response.
   *
   * @param headers HTTP headers for this request only (an HTTP upstream; stdio has none)
   * @return the whole response message ({@code result} or {@code error})
   * @throws UpstreamFailure when no response comes in time, or the upstream is gone
   */
  Map<String, Object> request(String method, Map<String, Object> params,
      Map<String, String> headers, Duration timeout);

  /** Sends notification {@code method}; a failure to send is ignored (the next request reports it). */
  void notify(String method, Map<String, Object> params);

  /** Whether the connection can still carry requests (a stdio process that exited cannot). */
  boolean alive();

  /** Closes the session: ends the process of a stdio upstream. Never throws. */
  @Override
  void close();
}
