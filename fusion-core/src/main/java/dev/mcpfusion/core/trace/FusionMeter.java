package dev.mcpfusion.core.trace;

/**
 * Records the server's metrics: the duration of every MCP request and notification it handles
 * ({@link McpMetrics#SERVER_OPERATION_DURATION}), of every session
 * ({@link McpMetrics#SERVER_SESSION_DURATION}), and what the guards did (calls refused, timed out,
 * capped; values redacted). Register one with {@code FusionServer.builder(...).meter(meter)};
 * {@code fusion-otel}'s {@code OtelFusionMeter} adapts OpenTelemetry, the Spring Boot starter
 * adapts Micrometer. The default, {@link #NOOP}, records nothing, and with it (and no tracer) the
 * server does no observability work at all.
 *
 * <p>Every value the server passes has bounded cardinality: a method name, a tool or prompt name
 * the server declares (an unknown one is {@link McpMetrics#OTHER}), an error code, a transport, a
 * protocol version; never an id, a URI or an argument. Implementations must be thread-safe.
 */
public interface FusionMeter {
  /** A meter that records nothing; the server skips all metric work when it is in use. */
  FusionMeter NOOP = new FusionMeter() {
    @Override
    public void operation(McpOperation operation, double seconds) {}

    @Override
    public void session(String networkTransport, String protocolVersion, double seconds) {}

    @Override
    public void guard(GuardEvent event, String method, String target, long amount) {}

    @Override
    public String toString() {
      return "FusionMeter.NOOP";
    }
  };

  /** One request or notification handled, from its arrival until its answer was written. */
  void operation(McpOperation operation, double seconds);

  /**
   * One session ended, {@code seconds} after it opened.
   *
   * @param networkTransport {@code pipe}, {@code tcp}, or {@code null} when unknown (in memory)
   * @param protocolVersion the negotiated version, or {@code null} when none was
   */
  void session(String networkTransport, String protocolVersion, double seconds);

  /**
   * A guard acted on a call of {@code method} for {@code target} (a declared tool or prompt name,
   * or {@link McpMetrics#OTHER}); {@code amount} is 1, or for {@link GuardEvent#REDACTED} the number
   * of values masked.
   */
  void guard(GuardEvent event, String method, String target, long amount);

  /** What a guard did; each is one counter ({@link #metric()}). */
  enum GuardEvent {
    /** The concurrency gate turned the call away ({@code SERVER_BUSY}). */
    REFUSED(McpMetrics.CALLS_REFUSED),
    /** The call's deadline passed ({@code TIMEOUT}). */
    TIMED_OUT(McpMetrics.CALLS_TIMED_OUT),
    /** The byte cap cut the reply, or replaced it with {@code PAYLOAD_TOO_LARGE}. */
    BYTES_CAPPED(McpMetrics.REPLIES_CAPPED),
    /** Redaction masked values in a reply (counted by value). */
    REDACTED(McpMetrics.REDACTIONS);

    private final String metric;

    GuardEvent(String metric) {
      this.metric = metric;
    }

    /** The counter's name. */
    public String metric() {
      return metric;
    }
  }
}
