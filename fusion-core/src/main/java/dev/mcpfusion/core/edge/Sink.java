package dev.mcpfusion.core.edge;

/**
 * Where the edge sends what it writes for one connection: the transport frames the bytes (a line
 * on stdio, a body or an event on HTTP, a queue in the tester). Called from any thread; an
 * implementation must not interleave two messages.
 */
public interface Sink {
  /**
   * The reply to the request {@code id}: a complete JSON-RPC response, UTF-8 JSON. {@code id} is
   * {@code null} only for an error about a message whose id could not be read; {@code errorCode}
   * is the JSON-RPC error code of an error response (HTTP maps it to a status), 0 for a result.
   */
  void reply(Object id, int errorCode, byte[] json);

  /**
   * The reply to the request {@code id} sent while the thread that dispatched the request is still
   * held by its handler: a deadline's {@code TIMEOUT}, written from the timer's thread, while a
   * handler that ignores its interrupt runs on. A transport whose connection is tied to that thread
   * must let the client go on without it (HTTP/1.1 serves a connection's next request only once the
   * current one's thread returns, so the HTTP transport closes that connection after this reply).
   * By default the same as {@link #reply}.
   */
  default void replyWhileHeld(Object id, int errorCode, byte[] json) {
    reply(id, errorCode, json);
  }

  /** A message the server starts itself (a notification or a request to the client). */
  void push(byte[] json);

  /**
   * Whether this sink can hold a long-lived event stream for one request (a stateless HTTP POST
   * whose client accepts {@code text/event-stream}): what {@code subscriptions/listen} needs.
   */
  default boolean holdsStreams() {
    return false;
  }

  /**
   * Sends a heartbeat on the held event stream (an SSE comment, which no client reads as a message)
   * and says whether the client is still there: {@code false} once a write has failed or the
   * stream has ended. Only for a sink that {@link #holdsStreams()}.
   */
  default boolean heartbeat() {
    return false;
  }
}
