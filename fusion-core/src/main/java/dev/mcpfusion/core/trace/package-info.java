/**
 * The tracing SPI: one span per {@code tools/call}, named {@code tools/call {tool}},
 * started through a {@link dev.mcpfusion.core.trace.FusionTracer} under the W3C parent the caller
 * sent ({@link dev.mcpfusion.core.trace.TraceContext}).
 *
 * <p>This package is ours and has no OpenTelemetry dependency; {@code fusion-otel} adapts it to
 * {@code opentelemetry-api}. The default tracer, {@link dev.mcpfusion.core.trace.FusionTracer#NOOP},
 * records nothing and costs nothing on the call path.
 */
package dev.mcpfusion.core.trace;
