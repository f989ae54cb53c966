package dev.mcpfusion.otel;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.core.trace.TraceContext;
import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.otel.fixtures.Briefs;
import dev.mcpfusion.otel.fixtures.Ops;
import dev.mcpfusion.testing.FusionTester;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OpenTelemetry SDK exporting to memory, an {@link OtelFusionTracer} over it wrapped in a
 * check that the serving thread's current context is the root whenever a tool span starts or ends
 * (a scope leaked by an earlier call on that thread shows up there), and testers over {@link Ops}.
 */
final class OtelHarness implements AutoCloseable {
  final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  final SdkTracerProvider provider = SdkTracerProvider.builder()
      .addSpanProcessor(SimpleSpanProcessor.create(exporter))
      .build();
  final OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
  /** Where and on which thread the current context was not the root. */
  final List<String> leaks = new CopyOnWriteArrayList<>();
  private final List<FusionTester> testers = new ArrayList<>();

  FusionTracer tracer(TraceOptions options) {
    return new LeakCheckingTracer(OtelFusionTracer.of(otel, options), leaks);
  }

  Ops.OpsTools tools() {
    return new Ops.OpsTools(otel.getTracer("handler-code"));
  }

  /** A tracing tester in {@code exposition}. */
  FusionTester tester(Exposition exposition, TraceOptions options) {
    FusionTester t = FusionTester.of(Ops.OpsTools_Fusion.bind(tools()))
        .exposition(exposition)
        .tracer(tracer(options));
    testers.add(t);
    return t;
  }

  FusionTester tester(Exposition exposition) {
    return tester(exposition, TraceOptions.DEFAULT);
  }

  /** A tracing tester over {@link Ops} and the prompts, resources and completions of {@link Briefs}. */
  FusionTester withFeatures(TraceOptions options) {
    return withFeatures(FusionServer.builder("ops", "1"), options);
  }

  /** As {@link #withFeatures(TraceOptions)}, on {@code builder} (its redaction, say). */
  FusionTester withFeatures(FusionServer.Builder builder, TraceOptions options) {
    FusionTester t = FusionTester.of(builder.register(Ops.OpsTools_Fusion.bind(tools()))
            .register(Briefs.BriefPrompts_Features.bind(
                new Briefs.BriefPrompts(otel.getTracer("handler-code")))))
        .tracer(tracer(options));
    testers.add(t);
    return t;
  }

  /** The finished spans of {@code method} ({@code prompts/get}, …), in the order they ended. */
  List<SpanData> spans(String method) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(method) || s.getName().startsWith(method + " ")).toList();
  }

  /** The only finished span of {@code method}. */
  SpanData onlySpan(String method) {
    List<SpanData> spans = spans(method);
    if (spans.size() != 1) {
      throw new AssertionError("expected exactly one " + method + " span but got " + spans);
    }
    return spans.get(0);
  }

  /** The same connector without a tracer. */
  FusionTester untraced(Exposition exposition) {
    FusionTester t = FusionTester.of(Ops.OpsTools_Fusion.bind(tools())).exposition(exposition);
    testers.add(t);
    return t;
  }

  List<SpanData> toolSpans() {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().startsWith("tools/call ")).toList();
  }

  SpanData onlyToolSpan() {
    List<SpanData> spans = toolSpans();
    if (spans.size() != 1) {
      throw new AssertionError("expected exactly one tool span but got " + spans);
    }
    return spans.get(0);
  }

  /** Every attribute value of the span and of its events, as text. */
  static List<String> allValues(SpanData span) {
    List<String> values = new ArrayList<>();
    span.getAttributes().forEach((k, v) -> values.add(String.valueOf(v)));
    for (EventData event : span.getEvents()) {
      values.add(event.getName());
      event.getAttributes().forEach((k, v) -> values.add(String.valueOf(v)));
    }
    values.add(span.getStatus().getDescription());
    values.add(span.getName());
    return values;
  }

  static String attr(SpanData span, String key) {
    Object value = span.getAttributes().asMap().get(AttributeKey.stringKey(key));
    return value == null ? null : value.toString();
  }

  @Override
  public void close() {
    for (FusionTester t : testers) {
      t.close();
    }
    otel.close();
  }

  /** Checks the current context at span start and end, on the serving thread. */
  static final class LeakCheckingTracer implements FusionTracer {
    private final FusionTracer delegate;
    private final List<String> leaks;

    LeakCheckingTracer(FusionTracer delegate, List<String> leaks) {
      this.delegate = delegate;
      this.leaks = leaks;
    }

    @Override
    public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
      check("start of " + name);
      FusionSpan span = delegate.startSpan(name, parent, attributes);
      return new FusionSpan() {
        @Override
        public FusionSpan setAttribute(String key, String value) {
          span.setAttribute(key, value);
          return this;
        }

        @Override
        public FusionSpan setAttribute(String key, long value) {
          span.setAttribute(key, value);
          return this;
        }

        @Override
        public FusionSpan setAttribute(String key, double value) {
          span.setAttribute(key, value);
          return this;
        }

        @Override
        public FusionSpan setAttribute(String key, boolean value) {
          span.setAttribute(key, value);
          return this;
        }

        @Override
        public FusionSpan setStatus(SpanStatus status) {
          span.setStatus(status);
          return this;
        }

        @Override
        public FusionSpan recordException(Throwable exception, boolean withMessage) {
          span.recordException(exception, withMessage);
          return this;
        }

        @Override
        public <T> T withCurrent(Callable<T> body) throws Exception {
          return span.withCurrent(body);
        }

        @Override
        public void end() {
          check("end of " + name);
          span.end();
        }
      };
    }

    @Override
    public TraceOptions options() {
      return delegate.options();
    }

    private void check(String where) {
      if (Context.current() != Context.root()) {
        leaks.add(where + " on " + Thread.currentThread().getName() + ": " + Context.current());
      }
    }
  }
}
