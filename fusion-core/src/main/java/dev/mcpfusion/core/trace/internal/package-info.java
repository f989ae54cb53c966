/**
 * The server's own side of tracing: {@link dev.mcpfusion.core.trace.internal.RequestTrace}, the
 * span of one request as the pipeline and the edge record it. Not exported: handler and tracer
 * code sees only the SPI in {@code dev.mcpfusion.core.trace}.
 */
package dev.mcpfusion.core.trace.internal;
