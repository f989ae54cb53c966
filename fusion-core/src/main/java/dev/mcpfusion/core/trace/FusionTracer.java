package dev.mcpfusion.core.trace;

import java.util.Map;

/**
 * Starts the span of one request a handler serves ({@code tools/call}, {@code prompts/get},
 * {@code resources/read}, {@code completion/complete}). Register one with
 * {@code FusionServer.builder(...).tracer(tracer)}; {@code fusion-otel}'s {@code OtelFusionTracer}
 * adapts OpenTelemetry. The default, {@link #NOOP}, records nothing.
 *
 * <p>Implementations must be thread-safe: calls are served concurrently.
 */
public interface FusionTracer {
  /** A tracer that records nothing; the server skips all span work when it is in use. */
  FusionTracer NOOP = new FusionTracer() {
    @Override
    public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
      return NoopSpan.INSTANCE;
    }

    @Override
    public String toString() {
      return "FusionTracer.NOOP";
    }
  };

  /**
   * Starts a span named {@code name} as a child of {@code parent}, or as a root span when
   * {@code parent} has no parent ({@link TraceContext#EMPTY}). The parent's trace state and
   * baggage are passed on as they came.
   *
   * @param attributes the attributes known when the call starts; values are {@code String},
   *     {@code Long}, {@code Double} or {@code Boolean}
   */
  FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes);

  /**
   * Starts a {@code CLIENT} span for a request the server sends its client while it serves a call
   * ({@code sampling/createMessage}, {@code elicitation/create}, {@code roots/list}), as a child of
   * the span current on this thread (the call's, which is current while its handler runs). By
   * default no span: a tracer written before client spans existed records none.
   *
   * @param attributes as for {@link #startSpan}
   */
  default FusionSpan startClientSpan(String name, Map<String, Object> attributes) {
    return NoopSpan.INSTANCE;
  }

  /** What the server may record beyond the default attributes; by default nothing. */
  default TraceOptions options() {
    return TraceOptions.DEFAULT;
  }
}
