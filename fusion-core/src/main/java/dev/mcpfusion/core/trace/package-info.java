/**
 * The tracing SPI: one span per request a handler serves, named after the method and its target
 * ({@code tools/call {tool}}, {@code prompts/get {prompt}}, {@code resources/read {uri}},
 * {@code completion/complete {prompt or template}}), started through a {@link dev.mcpfusion.core.trace.FusionTracer} under the W3C parent the caller
 * sent ({@link dev.mcpfusion.core.trace.TraceContext}).
 *
 * <p>This package is ours and has no OpenTelemetry dependency; {@code fusion-otel} adapts it to
 * {@code opentelemetry-api}. The default tracer, {@link dev.mcpfusion.core.trace.FusionTracer#NOOP},
 * records nothing and costs nothing on the call path.
 */
package dev.mcpfusion.core.trace;
