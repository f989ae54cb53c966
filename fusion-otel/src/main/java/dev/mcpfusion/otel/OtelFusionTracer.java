package dev.mcpfusion.otel;

import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.TraceContext;
import dev.mcpfusion.core.trace.TraceOptions;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The OpenTelemetry implementation of the fusion-core tracing SPI: one {@link SpanKind#SERVER}
 * span per request and notification the server handles ({@code tools/call}, {@code prompts/get},
 * {@code resources/read}, {@code completion/complete}, {@code initialize},
 * {@code notifications/cancelled}, …), under the caller's W3C parent, current while the handler
 * runs; one {@link SpanKind#CLIENT} span per request the server sends its client
 * ({@code sampling/createMessage}, {@code elicitation/create}, …), a child of the call's span.
 *
 * <pre>{@code
 * FusionServer server = FusionServer.builder("billing", "1.0.0")
 *     .register(new BillingTools(store))
 *     .tracer(OtelFusionTracer.of(openTelemetry))
 *     .build();
 * }</pre>
 *
 * <p>The parent is only ever the {@link TraceContext} the server parsed (strictly) from
 * {@code params._meta} or the request headers, never whatever context happens to be current on the
 * serving thread: with no valid parent the span is a root. Its {@code tracestate} and
 * {@code baggage} go through OpenTelemetry's own W3C propagators, so the user's SDK sees exactly
 * what a propagated HTTP request would give it, and handler code reads the baggage with
 * {@code Baggage.current()}.
 */
public final class OtelFusionTracer implements FusionTracer {
  /** The instrumentation scope name of the spans. */
  public static final String INSTRUMENTATION_SCOPE = "dev.mcpfusion";

  private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Map<String, String> carrier) {
      return carrier.keySet();
    }

    @Override
    public String get(Map<String, String> carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };

  private final Tracer tracer;
  private final TraceOptions options;

  private OtelFusionTracer(Tracer tracer, TraceOptions options) {
    this.tracer = tracer;
    this.options = options;
  }

  /** A tracer over {@code openTelemetry}, recording no argument, result data or exception message. */
  public static OtelFusionTracer of(OpenTelemetry openTelemetry) {
    return of(openTelemetry, TraceOptions.DEFAULT);
  }

  /** A tracer over {@code openTelemetry} with the given opt-ins. */
  public static OtelFusionTracer of(OpenTelemetry openTelemetry, TraceOptions options) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    Objects.requireNonNull(options, "options");
    return new OtelFusionTracer(openTelemetry.getTracer(INSTRUMENTATION_SCOPE), options);
  }

  @Override
  public TraceOptions options() {
    return options;
  }

  @Override
  public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
    Context parentContext = parentContext(parent);
    SpanBuilder builder = tracer.spanBuilder(name)
        .setSpanKind(SpanKind.SERVER)
        .setParent(parentContext);
    attributes.forEach((key, value) -> OtelSpan.set(builder, key, value));
    io.opentelemetry.api.trace.Span span = builder.startSpan();
    return new OtelSpan(span, parentContext.with(span));
  }

  /**
   * A {@link SpanKind#CLIENT} span for a request the server sends its client, a child of the span
   * current on this thread: the call's, which {@link OtelSpan#withCurrent} made current.
   */
  @Override
  public FusionSpan startClientSpan(String name, Map<String, Object> attributes) {
    Context current = Context.current();
    SpanBuilder builder = tracer.spanBuilder(name)
        .setSpanKind(SpanKind.CLIENT)
        .setParent(current);
    attributes.forEach((key, value) -> OtelSpan.set(builder, key, value));
    io.opentelemetry.api.trace.Span span = builder.startSpan();
    return new OtelSpan(span, current.with(span));
  }

  /**
   * The root context plus the remote parent span and the baggage of {@code parent}, extracted with
   * the W3C propagators (never {@code Context.current()}).
   */
  static Context parentContext(TraceContext parent) {
    Context context = Context.root();
    if (parent == null) {
      return context;
    }
    Map<String, String> carrier = new LinkedHashMap<>();
    if (parent.hasParent()) {
      carrier.put(TraceContext.TRACEPARENT, parent.traceparent());
      parent.traceState().ifPresent(s -> carrier.put(TraceContext.TRACESTATE, s));
    }
    parent.baggage().ifPresent(b -> carrier.put(TraceContext.BAGGAGE, b));
    if (carrier.isEmpty()) {
      return context;
    }
    context = W3CTraceContextPropagator.getInstance().extract(context, carrier, GETTER);
    return W3CBaggagePropagator.getInstance().extract(context, carrier, GETTER);
  }

  @Override
  public String toString() {
    return "OtelFusionTracer" + options;
  }
}
