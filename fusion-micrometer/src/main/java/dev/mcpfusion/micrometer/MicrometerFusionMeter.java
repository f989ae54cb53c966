package dev.mcpfusion.micrometer;

import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.core.trace.McpOperation;
import dev.mcpfusion.core.trace.SpanAttributes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;

/**
 * The Micrometer implementation of the fusion-core metrics SPI: the timers
 * {@code mcp.server.operation.duration} and {@code mcp.server.session.duration} with the bucket
 * boundaries the MCP conventions advise (as service-level objectives, so a Prometheus registry
 * shows them as {@code _bucket} series) and one counter per guard event. Prometheus shows them as
 * {@code mcp_server_operation_duration_seconds}, {@code mcp_server_session_duration_seconds},
 * {@code mcpfusion_calls_refused_total}, …
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * FusionServer server = FusionServer.builder("billing", "1.0.0")
 *     .register(new BillingTools(store))
 *     .meter(MicrometerFusionMeter.of(registry))
 *     .build();
 * }</pre>
 *
 * <p>Every meter of one name has the same tag keys (Prometheus requires it): a tag that does not
 * apply has the empty value, which Prometheus treats as absent.
 */
public final class MicrometerFusionMeter implements FusionMeter {
  private static final Duration[] BUCKETS = McpMetrics.DURATION_BUCKETS.stream()
      .map(seconds -> Duration.ofNanos(Math.round(seconds * 1_000_000_000L)))
      .toArray(Duration[]::new);

  private final MeterRegistry registry;

  private MicrometerFusionMeter(MeterRegistry registry) {
    this.registry = registry;
  }

  /** A meter recording into {@code registry}. */
  public static MicrometerFusionMeter of(MeterRegistry registry) {
    return new MicrometerFusionMeter(Objects.requireNonNull(registry, "registry"));
  }

  @Override
  public void operation(McpOperation operation, double seconds) {
    Timer.builder(McpMetrics.SERVER_OPERATION_DURATION)
        .description("MCP request or notification duration as observed on the receiver from the"
            + " time it was received until the result or ack is sent.")
        .tags(Tags.of(
            SpanAttributes.MCP_METHOD_NAME, text(operation.method()),
            SpanAttributes.GEN_AI_TOOL_NAME, text(operation.toolName()),
            SpanAttributes.GEN_AI_PROMPT_NAME, text(operation.promptName()),
            SpanAttributes.ERROR_TYPE, text(operation.errorType()),
            SpanAttributes.RPC_RESPONSE_STATUS_CODE, text(operation.rpcStatusCode()),
            SpanAttributes.NETWORK_TRANSPORT, text(operation.networkTransport()),
            SpanAttributes.MCP_PROTOCOL_VERSION, text(operation.protocolVersion())))
        .serviceLevelObjectives(BUCKETS)
        .register(registry)
        .record(nanos(seconds));
  }

  @Override
  public void session(String networkTransport, String protocolVersion, double seconds) {
    Timer.builder(McpMetrics.SERVER_SESSION_DURATION)
        .description("The duration of the MCP session as observed on the MCP server.")
        .tags(Tags.of(
            SpanAttributes.NETWORK_TRANSPORT, text(networkTransport),
            SpanAttributes.MCP_PROTOCOL_VERSION, text(protocolVersion)))
        .serviceLevelObjectives(BUCKETS)
        .register(registry)
        .record(nanos(seconds));
  }

  @Override
  public void guard(GuardEvent event, String method, String target, long amount) {
    Counter.builder(event.metric())
        .tags(Tags.of(SpanAttributes.MCP_METHOD_NAME, text(method), McpMetrics.TARGET, text(target)))
        .register(registry)
        .increment(amount);
  }

  private static Duration nanos(double seconds) {
    return Duration.ofNanos(Math.round(seconds * 1_000_000_000d));
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }

  @Override
  public String toString() {
    return "MicrometerFusionMeter[" + registry.getClass().getSimpleName() + "]";
  }
}
