package dev.mcpfusion.otel;

import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.core.trace.McpOperation;
import dev.mcpfusion.core.trace.SpanAttributes;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The OpenTelemetry implementation of the fusion-core metrics SPI: the histograms
 * {@code mcp.server.operation.duration} and {@code mcp.server.session.duration} (seconds, with the
 * bucket boundaries the MCP conventions advise) and one counter per guard event, on the meter of
 * scope {@link OtelFusionTracer#INSTRUMENTATION_SCOPE}.
 *
 * <pre>{@code
 * FusionServer server = FusionServer.builder("billing", "1.0.0")
 *     .register(new BillingTools(store))
 *     .tracer(OtelFusionTracer.of(openTelemetry))
 *     .meter(OtelFusionMeter.of(openTelemetry))
 *     .build();
 * }</pre>
 */
public final class OtelFusionMeter implements FusionMeter {
  static final AttributeKey<String> METHOD = AttributeKey.stringKey(SpanAttributes.MCP_METHOD_NAME);
  static final AttributeKey<String> TOOL = AttributeKey.stringKey(SpanAttributes.GEN_AI_TOOL_NAME);
  static final AttributeKey<String> PROMPT = AttributeKey.stringKey(SpanAttributes.GEN_AI_PROMPT_NAME);
  static final AttributeKey<String> ERROR = AttributeKey.stringKey(SpanAttributes.ERROR_TYPE);
  static final AttributeKey<String> STATUS =
      AttributeKey.stringKey(SpanAttributes.RPC_RESPONSE_STATUS_CODE);
  static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey(SpanAttributes.NETWORK_TRANSPORT);
  static final AttributeKey<String> VERSION = AttributeKey.stringKey(SpanAttributes.MCP_PROTOCOL_VERSION);
  static final AttributeKey<String> TARGET = AttributeKey.stringKey(McpMetrics.TARGET);

  private final DoubleHistogram operations;
  private final DoubleHistogram sessions;
  private final Map<GuardEvent, LongCounter> counters = new EnumMap<>(GuardEvent.class);

  private OtelFusionMeter(Meter meter) {
    this.operations = meter.histogramBuilder(McpMetrics.SERVER_OPERATION_DURATION)
        .setUnit(McpMetrics.SECONDS)
        .setDescription("MCP request or notification duration as observed on the receiver from the"
            + " time it was received until the result or ack is sent.")
        .setExplicitBucketBoundariesAdvice(McpMetrics.DURATION_BUCKETS)
        .build();
    this.sessions = meter.histogramBuilder(McpMetrics.SERVER_SESSION_DURATION)
        .setUnit(McpMetrics.SECONDS)
        .setDescription("The duration of the MCP session as observed on the MCP server.")
        .setExplicitBucketBoundariesAdvice(McpMetrics.DURATION_BUCKETS)
        .build();
    for (GuardEvent event : GuardEvent.values()) {
      counters.put(event, meter.counterBuilder(event.metric()).build());
    }
  }

  /** A meter over {@code openTelemetry}'s meter provider. */
  public static OtelFusionMeter of(OpenTelemetry openTelemetry) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    return new OtelFusionMeter(openTelemetry.getMeter(OtelFusionTracer.INSTRUMENTATION_SCOPE));
  }

  @Override
  public void operation(McpOperation operation, double seconds) {
    AttributesBuilder attributes = Attributes.builder();
    put(attributes, METHOD, operation.method());
    put(attributes, TOOL, operation.toolName());
    put(attributes, PROMPT, operation.promptName());
    put(attributes, ERROR, operation.errorType());
    put(attributes, STATUS, operation.rpcStatusCode());
    put(attributes, TRANSPORT, operation.networkTransport());
    put(attributes, VERSION, operation.protocolVersion());
    operations.record(seconds, attributes.build());
  }

  @Override
  public void session(String networkTransport, String protocolVersion, double seconds) {
    AttributesBuilder attributes = Attributes.builder();
    put(attributes, TRANSPORT, networkTransport);
    put(attributes, VERSION, protocolVersion);
    sessions.record(seconds, attributes.build());
  }

  @Override
  public void guard(GuardEvent event, String method, String target, long amount) {
    AttributesBuilder attributes = Attributes.builder();
    put(attributes, METHOD, method);
    put(attributes, TARGET, target);
    counters.get(event).add(amount, attributes.build());
  }

  private static void put(AttributesBuilder attributes, AttributeKey<String> key, String value) {
    if (value != null) {
      attributes.put(key, value);
    }
  }

  @Override
  public String toString() {
    return "OtelFusionMeter";
  }
}
