package dev.mcpfusion.core.trace;

import java.util.List;

/**
 * The metric names and histogram buckets the server records through a {@link FusionMeter}: the two
 * server metrics of the OpenTelemetry MCP semantic conventions (semantic-conventions-genai v0.1.0,
 * {@code docs/gen-ai/mcp.md}) and our guard counters.
 */
public final class McpMetrics {
  private McpMetrics() {}

  /** Histogram, seconds: one request or notification, from arrival until its answer was written. */
  public static final String SERVER_OPERATION_DURATION = "mcp.server.operation.duration";
  /** Histogram, seconds: one session, from its opening until it closed. */
  public static final String SERVER_SESSION_DURATION = "mcp.server.session.duration";
  /** Counter: calls the concurrency gate turned away. */
  public static final String CALLS_REFUSED = "mcpfusion.calls.refused";
  /** Counter: calls whose deadline passed. */
  public static final String CALLS_TIMED_OUT = "mcpfusion.calls.timed_out";
  /** Counter: replies the byte cap cut or replaced. */
  public static final String REPLIES_CAPPED = "mcpfusion.replies.capped";
  /** Counter: values and pieces of text redaction masked. */
  public static final String REDACTIONS = "mcpfusion.redactions";

  /** The unit of the two histograms (UCUM seconds). */
  public static final String SECONDS = "s";

  /**
   * The bucket boundaries the conventions advise for both histograms
   * ({@code ExplicitBucketBoundaries}), in seconds.
   */
  public static final List<Double> DURATION_BUCKETS = List.of(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0,
      2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0);

  /**
   * The label of a tool or prompt the server does not declare, so that names an agent invents
   * cannot grow the number of series ({@code _OTHER}, the conventions' fallback value).
   */
  public static final String OTHER = "_OTHER";

  /** The attribute of the guard counters that names the method ({@code mcp.method.name}). */
  public static final String METHOD = SpanAttributes.MCP_METHOD_NAME;
  /** The attribute of the guard counters that names the tool or prompt ({@code mcpfusion.target}). */
  public static final String TARGET = SpanAttributes.MCPFUSION_TARGET;
}
