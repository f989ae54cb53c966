/** OpenTelemetry adapter for the fusion-core tracing SPI. */
module dev.mcpfusion.otel {
  requires transitive dev.mcpfusion.core;
  // OtelTracer is built from an OpenTelemetry instance.
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;

  exports dev.mcpfusion.otel;
}
