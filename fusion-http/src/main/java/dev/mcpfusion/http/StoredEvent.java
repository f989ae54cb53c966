package dev.mcpfusion.http;

import java.io.Serializable;
import java.util.Objects;

/**
 * One event of a resumable Streamable HTTP event stream, as an {@link EventStore} keeps it: plain
 * strings and a number, so a store may write it anywhere (a shared cache, a log) and read it back.
 *
 * @param sessionId the {@code Mcp-Session-Id} of the session the stream belongs to
 * @param streamId the stream within the session: a tag drawn for the session, a dot, then
 *     {@code 0} for the session's GET stream or {@code 1}, {@code 2}, … for the POST responses
 *     that became event streams, in the order they did (for example {@code k3j9x0qa.2})
 * @param sequence the event's place in its stream, from 1, without gaps
 * @param data the event's {@code data:} field: one JSON-RPC message, compact JSON on one line
 */
public record StoredEvent(String sessionId, String streamId, long sequence, String data)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Checks the components: none {@code null}, the sequence positive. */
  public StoredEvent {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(streamId, "streamId");
    Objects.requireNonNull(data, "data");
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence must be at least 1, got " + sequence);
    }
  }

  /**
   * The event's SSE {@code id:} field, {@code <streamId>-<sequence>} (for example
   * {@code k3j9x0qa.2-12}): unique within the session and naming the stream, so a client's
   * {@code Last-Event-ID} says which stream to resume and where; the session's tag tells an id
   * sent in another session apart.
   */
  public String eventId() {
    return streamId + "-" + sequence;
  }
}
