package dev.mcpfusion.http;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the Streamable HTTP endpoint keeps the events it sent on a session's event streams, so a
 * client whose connection broke can reconnect with {@code Last-Event-ID} and receive what it
 * missed on that stream, once. The endpoint writes every event here before it writes it to the
 * connection, asks for the events after a {@code Last-Event-ID} when a client resumes, and
 * forgets a session's events when the session ends.
 *
 * <p>{@link #inMemory()} is the default (set another with {@link HttpOptions#eventStore}). A store
 * must stay bounded: when it would grow past its limits it drops the oldest events, and a resume
 * that reaches back past them is refused with a clear error rather than replayed with a gap.
 * Called from any thread.
 */
public interface EventStore {
  /**
   * Keeps {@code event}, the newest of its stream (events of one stream arrive in sequence order),
   * dropping the oldest events of its stream or of the whole store to stay within the limits.
   */
  void append(StoredEvent event);

  /**
   * The kept events of one stream whose sequence is {@code sequence} or later, oldest first;
   * empty when the store keeps no event of that stream at all (it never had one, or dropped them
   * all). Only whole streams are dropped from the front: the events returned have consecutive
   * sequence numbers, the stream's newest last.
   */
  Optional<List<StoredEvent>> eventsFrom(String sessionId, String streamId, long sequence);

  /** Drops every event of the session (it ended: nobody can resume its streams any more). */
  void forget(String sessionId);

  /**
   * Records that POST stream {@code streamId} carries the messages and then the reply of the
   * request whose JSON-RPC id is {@code requestId} (as JSON text), a call this instance runs. A
   * store shared by several instances keeps this with the stream's events, so that another
   * instance resuming the stream can learn whether the instance running the call is still alive
   * ({@link #endOrphaned}). Called before the stream's first event. The default keeps nothing: a
   * store in one process's memory has no other instance to tell.
   */
  default void opened(String sessionId, String streamId, String requestId) {}

  /**
   * Ends a POST stream whose call's instance stopped before it replied. When the store knows which
   * instance runs the call of {@code streamId} ({@link #opened}), that instance is no longer alive,
   * and the stream's newest event is still {@code lastSequence}, the store appends the event whose
   * data is {@code ending} applied to the request's id (JSON text) as the stream's event {@code
   * lastSequence + 1}, atomically, and from then on appends nothing more to the stream (a late
   * event of that instance is dropped). Bounded: a store that cannot tell within its time limit
   * throws, and the caller treats the stream as still running.
   *
   * @return the ending appended now; empty when the instance is alive or unknown, or the stream
   *     moved on since {@code lastSequence} (the default: never ends a stream)
   */
  default Optional<StoredEvent> endOrphaned(String sessionId, String streamId, long lastSequence,
      Function<String, String> ending) {
    return Optional.empty();
  }

  /** A store in this process's memory with the {@link Limits#DEFAULT default limits}. */
  static EventStore inMemory() {
    return new InMemoryEventStore(Limits.DEFAULT);
  }

  /** A store in this process's memory that keeps at most {@code limits}. */
  static EventStore inMemory(Limits limits) {
    return new InMemoryEventStore(limits);
  }

  /**
   * How much an in-memory store keeps: per stream and in all, in events and in bytes (the UTF-8
   * length of the events' data). Over a limit the oldest events go first.
   *
   * @param eventsPerStream the most events kept of one stream
   * @param bytesPerStream the most bytes kept of one stream
   * @param events the most events kept in all
   * @param bytes the most bytes kept in all
   */
  record Limits(int eventsPerStream, long bytesPerStream, int events, long bytes) {
    /**
     * 1,000 events and 1 MiB per stream, 10,000 events and 16 MiB in all: a long call's progress
     * and its result, for many sessions at once, in a small share of a small heap.
     */
    public static final Limits DEFAULT = new Limits(1_000, 1L << 20, 10_000, 16L << 20);

    /** Checks that every limit is positive and no per-stream limit exceeds its total. */
    public Limits {
      if (eventsPerStream < 1 || bytesPerStream < 1 || events < 1 || bytes < 1) {
        throw new IllegalArgumentException("Every event-store limit must be positive, got " + this);
      }
      if (eventsPerStream > events || bytesPerStream > bytes) {
        throw new IllegalArgumentException(
            "A stream's limits must not exceed the store's, got " + this);
      }
    }
  }
}
