package dev.mcpfusion.samples.billing;

import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.otel.OtelFusionTracer;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/**
 * Span export for the sample, off by default: {@code FUSION_TRACE=logging} logs one line per
 * tool-call span to stderr (java.util.logging), through {@link OtelFusionTracer}.
 */
public final class BillingTracing {
  /** The environment variable that turns export on. */
  public static final String ENV = "FUSION_TRACE";

  private BillingTracing() {}

  /** The tracer the environment asks for. */
  public static FusionTracer fromEnvironment() {
    return of(System.getenv(ENV));
  }

  /**
   * The tracer for a {@code FUSION_TRACE} value: {@code null} or empty → none; {@code logging} →
   * the OpenTelemetry SDK with a logging exporter.
   *
   * @throws IllegalArgumentException for any other value, naming the accepted ones
   */
  public static FusionTracer of(String setting) {
    if (setting == null || setting.isBlank()) {
      return FusionTracer.NOOP;
    }
    if (!setting.equals("logging")) {
      throw new IllegalArgumentException(
          ENV + "='" + setting + "' is not supported; use 'logging' or leave it unset.");
    }
    return Logging.tracer();
  }

  /** Kept apart so a start without tracing never loads (or verifies against) OpenTelemetry. */
  private static final class Logging {
    static FusionTracer tracer() {
      SdkTracerProvider provider = SdkTracerProvider.builder()
          .addSpanProcessor(SimpleSpanProcessor.create(LoggingSpanExporter.create()))
          .build();
      Runtime.getRuntime().addShutdownHook(new Thread(provider::close, "otel-shutdown"));
      return OtelFusionTracer.of(OpenTelemetrySdk.builder().setTracerProvider(provider).build());
    }
  }
}
