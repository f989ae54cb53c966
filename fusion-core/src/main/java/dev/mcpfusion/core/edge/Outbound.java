package dev.mcpfusion.core.edge;

/**
 * Where the edge sends what it writes for one connection: the transport frames the bytes (a line
 * on stdio, a body or an event on HTTP, a queue in the tester). Called from any thread; an
 * implementation must not interleave two messages.
 */
public interface Outbound {
  /**
   * The reply to the request {@code id}: a complete JSON-RPC response, UTF-8 JSON. {@code id} is
   * {@code null} only for an error about a message whose id could not be read; {@code errorCode}
   * is the JSON-RPC error code of an error response (HTTP maps it to a status), 0 for a result.
   */
  void reply(Object id, int errorCode, byte[] json);

  /** A message the server starts itself (a notification or a request to the client). */
  void push(byte[] json);
}
