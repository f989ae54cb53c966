package dev.mcpfusion.http;

/**
 * The event store did not answer a resume ({@link SessionStreams#resume}) before anything was sent
 * to the client, which is answered {@code 503} with {@code Retry-After} ({@link GetEventStream}):
 * the same {@code Last-Event-ID} resumes the stream once the store answers again.
 */
final class EventStoreUnavailable extends RuntimeException {
  private static final long serialVersionUID = 1L;

  EventStoreUnavailable(RuntimeException cause) {
    super(cause);
  }
}
