package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.McpOperation;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.core.trace.TraceContext;
import dev.mcpfusion.core.trace.internal.Observed;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * With no tracer and no meter the call path does no observability work: the server's observer is
 * the NOOP tracer itself, every trace it starts is {@link RequestTrace#OFF}, and each half of the
 * SPI is called only when it is configured (counted here call by call).
 */
class ObservabilityOffTest {
  private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
      + "{\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0001\"},\"_meta\":"
      + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

  private static FusionServer server(FusionTracer tracer, FusionMeter meter) {
    FusionServer.Builder builder = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_777"));
    if (tracer != null) {
      builder.tracer(tracer);
    }
    if (meter != null) {
      builder.meter(meter);
    }
    return builder.build();
  }

  private static void call(FusionServer server) {
    Sink sink = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {}

      @Override
      public void push(byte[] json) {}
    };
    server.edge().dispatch(server.edge().read(CALL), Inbound.inProcess(), null, sink);
  }

  @Test
  void aServerWithNeitherHasTheNoopTracerAsItsObserver() {
    assertThat(server(null, null).edge().observer()).isSameAs(FusionTracer.NOOP);
    assertThat(Observed.of(FusionTracer.NOOP, FusionMeter.NOOP)).isSameAs(FusionTracer.NOOP);
    CountingTracer tracer = new CountingTracer();
    assertThat(server(tracer, null).edge().observer()).isSameAs(tracer);
  }

  @Test
  void everyTraceOfTheNoopObserverIsOff() {
    FusionTracer noop = FusionTracer.NOOP;
    assertThat(SpanStart.tool(noop, "t", null, "r", "a", null, 1, Map.of())).isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.prompt(noop, "p", "r", null, 1, Map.of())).isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.resource(noop, "u://x", "u://x", "r", null, 1)).isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.completion(noop, "p", null, "r", null, 1, Map.of(), null))
        .isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.message(noop, "ping", 1, Map.of(), null, null, null, null))
        .isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.clientRequest(noop, "sampling/createMessage", "fusion-1", "t"))
        .isSameAs(RequestTrace.OFF);
  }

  @Test
  void eachHalfOfTheSpiIsCalledOnlyWhenConfigured() {
    CountingTracer tracer = new CountingTracer();
    CountingMeter meter = new CountingMeter();

    call(server(tracer, null));
    assertThat(tracer.spans.get()).isEqualTo(1);
    assertThat(tracer.calls.get()).isPositive();

    call(server(null, meter));
    assertThat(meter.operations.get()).isEqualTo(1);
    assertThat(meter.calls.get()).isEqualTo(1);

    CountingTracer unused = new CountingTracer();
    CountingMeter both = new CountingMeter();
    call(server(unused, both));
    assertThat(unused.spans.get()).isEqualTo(1);
    assertThat(both.operations.get()).isEqualTo(1);
  }

  /** Counts every call into the tracer and its spans. */
  static final class CountingTracer implements FusionTracer {
    final AtomicInteger spans = new AtomicInteger();
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
      spans.incrementAndGet();
      calls.incrementAndGet();
      return new FusionSpan() {
        @Override
        public FusionSpan setAttribute(String key, String value) {
          calls.incrementAndGet();
          return this;
        }

        @Override
        public FusionSpan setAttribute(String key, long value) {
          calls.incrementAndGet();
          return this;
        }

        @Override
        public FusionSpan setAttribute(String key, double value) {
          calls.incrementAndGet();
          return this;
        }

        @Override
        public FusionSpan setAttribute(String key, boolean value) {
          calls.incrementAndGet();
          return this;
        }

        @Override
        public FusionSpan setStatus(SpanStatus status) {
          calls.incrementAndGet();
          return this;
        }

        @Override
        public FusionSpan recordException(Throwable exception, boolean withMessage) {
          calls.incrementAndGet();
          return this;
        }

        @Override
        public <T> T withCurrent(Callable<T> body) throws Exception {
          calls.incrementAndGet();
          return body.call();
        }

        @Override
        public void end() {
          calls.incrementAndGet();
        }
      };
    }
  }

  /** Counts every call into the meter. */
  static final class CountingMeter implements FusionMeter {
    final AtomicInteger operations = new AtomicInteger();
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public void operation(McpOperation operation, double seconds) {
      operations.incrementAndGet();
      calls.incrementAndGet();
    }

    @Override
    public void session(String networkTransport, String protocolVersion, double seconds) {
      calls.incrementAndGet();
    }

    @Override
    public void guard(GuardEvent event, String method, String target, long amount) {
      calls.incrementAndGet();
    }
  }
}
