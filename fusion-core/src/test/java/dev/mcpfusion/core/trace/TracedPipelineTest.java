package dev.mcpfusion.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Sink;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The pipeline's span through the SPI alone (no OpenTelemetry): what it is told, and robustness. */
class TracedPipelineTest {
  private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  /** A span that remembers everything, as plain data. */
  static class Recorded implements FusionSpan {
    final String name;
    final TraceContext parent;
    final Map<String, Object> attributes = new LinkedHashMap<>();
    SpanStatus status;
    final List<String> exceptions = new ArrayList<>();
    boolean current;
    boolean currentDuringHandler;
    int ended;

    Recorded(String name, TraceContext parent, Map<String, Object> attributes) {
      this.name = name;
      this.parent = parent;
      this.attributes.putAll(attributes);
    }

    @Override
    public FusionSpan setAttribute(String key, String value) {
      attributes.put(key, value);
      return this;
    }

    @Override
    public FusionSpan setAttribute(String key, long value) {
      attributes.put(key, value);
      return this;
    }

    @Override
    public FusionSpan setAttribute(String key, double value) {
      attributes.put(key, value);
      return this;
    }

    @Override
    public FusionSpan setAttribute(String key, boolean value) {
      attributes.put(key, value);
      return this;
    }

    @Override
    public FusionSpan setStatus(SpanStatus status) {
      this.status = status;
      return this;
    }

    @Override
    public FusionSpan recordException(Throwable exception, boolean withMessage) {
      exceptions.add(StackTraces.of(exception, withMessage));
      return this;
    }

    @Override
    public <T> T withCurrent(Callable<T> body) throws Exception {
      current = true;
      try {
        return body.call();
      } finally {
        current = false;
        currentDuringHandler = true;
      }
    }

    @Override
    public void end() {
      ended++;
    }
  }

  static final class RecordingTracer implements FusionTracer {
    final List<Recorded> spans = new CopyOnWriteArrayList<>();

    @Override
    public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
      Recorded span = new Recorded(name, parent, attributes);
      spans.add(span);
      return span;
    }
  }

  private static FusionServer server(FusionTracer tracer) {
    FusionServer.Builder builder = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_777"));
    if (tracer != null) {
      builder.tracer(tracer);
    }
    return builder.build();
  }

  @Test
  void theSpanIsToldTheParentTheOutcomeAndIsEndedOnce() {
    RecordingTracer tracer = new RecordingTracer();
    FusionServer server = server(tracer);
    RequestContext request = RequestContext.of(Map.of(), Map.of("traceparent", PARENT), "s-1", "2025-11-25");
    call(server, "billing_get_invoice", Map.of("id", "INV-0001"), request);
    call(server, "billing_get_invoice", Map.of("id", "INV-9999"), request);

    assertThat(tracer.spans).hasSize(2);
    Recorded ok = tracer.spans.get(0);
    assertThat(ok.name).isEqualTo("tools/call billing_get_invoice");
    assertThat(ok.parent.traceparent()).isEqualTo(PARENT);
    assertThat(ok.status).isEqualTo(SpanStatus.OK);
    assertThat(ok.ended).isEqualTo(1);
    assertThat(ok.currentDuringHandler).isTrue();
    assertThat(ok.current).isFalse();
    assertThat(ok.attributes).containsEntry("mcpfusion.router", "billing")
        .containsEntry("mcpfusion.action", "get_invoice")
        .containsEntry("mcpfusion.exposition", "flat")
        .containsEntry("mcp.session.id", "s-1")
        .containsEntry("mcp.protocol.version", "2025-11-25")
        .containsKeys("mcpfusion.duration_ms")
        .doesNotContainKey("error.type");
    assertThat(ok.attributes.values()).noneMatch(v -> String.valueOf(v).contains("SENTINEL"));

    Recorded notFound = tracer.spans.get(1);
    assertThat(notFound.status).isEqualTo(SpanStatus.UNSET);
    assertThat(notFound.attributes).containsEntry("error.type", "NOT_FOUND")
        .containsEntry("mcpfusion.error.message", "Invoice \"INV-9999\" does not exist.");
    assertThat(notFound.exceptions).isEmpty();
  }

  @Test
  void theResponseSizeIsTheBytesTheEdgeWroteAndTheIdsAreTheRequestsId() {
    RecordingTracer tracer = new RecordingTracer();
    FusionServer server = server(tracer);
    List<byte[]> written = new ArrayList<>();
    Sink sink = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        written.add(json);
      }

      @Override
      public void push(byte[] json) {}
    };
    String call = "{\"jsonrpc\":\"2.0\",\"id\":\"req-7\",\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0001\"},\"_meta\":"
        + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    server.edge().dispatch(server.edge().read(call), Inbound.inProcess(), null, sink);

    assertThat(written).hasSize(1);
    Recorded span = tracer.spans.get(0);
    assertThat(span.attributes).containsEntry("mcpfusion.response_size", (long) written.get(0).length)
        .containsEntry("jsonrpc.request.id", "req-7")
        .containsEntry("gen_ai.tool.call.id", "req-7");
    assertThat(span.ended).isEqualTo(1);
  }

  @Test
  void theSpanTellsTheOutcomeTheClientGetsAfterTheEgressFilters() {
    RecordingTracer tracer = new RecordingTracer();
    FusionServer server = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_777"))
        .egressFilter((out, request) -> out.veto("POLICY", "Not for this caller."))
        .tracer(tracer)
        .build();
    List<byte[]> written = new ArrayList<>();
    Sink sink = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        written.add(json);
      }

      @Override
      public void push(byte[] json) {}
    };
    String call = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0001\"},\"_meta\":"
        + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    server.edge().dispatch(server.edge().read(call), Inbound.inProcess(), null, sink);

    assertThat(new String(written.get(0), java.nio.charset.StandardCharsets.UTF_8))
        .contains("code=\\\"POLICY\\\"");
    Recorded span = tracer.spans.get(0);
    // The pipeline's reply succeeded; the client got the filter's veto, and so does the span.
    assertThat(span.status).isEqualTo(SpanStatus.UNSET);
    assertThat(span.attributes).containsEntry("error.type", "POLICY")
        .containsEntry("mcpfusion.response_size", (long) written.get(0).length);
  }

  @Test
  void aCallMadeInMemoryHasNoResponseSizeAndNoRequestId() {
    RecordingTracer tracer = new RecordingTracer();
    call(server(tracer), "billing_get_invoice", Map.of("id", "INV-0001"), RequestContext.empty());
    assertThat(tracer.spans.get(0).attributes)
        .doesNotContainKeys("mcpfusion.response_size", "jsonrpc.request.id", "gen_ai.tool.call.id");
  }

  @Test
  void aFailingTracerNeverChangesTheReply() {
    FusionTracer failsToStart = (name, parent, attributes) -> {
      throw new IllegalStateException("exporter down");
    };
    FusionTracer failsToRecord = (name, parent, attributes) -> new Recorded(name, parent, attributes) {
      @Override
      public FusionSpan setAttribute(String key, long value) {
        throw new IllegalStateException("broken");
      }

      @Override
      public FusionSpan setStatus(SpanStatus status) {
        throw new IllegalStateException("broken");
      }

      @Override
      public void end() {
        throw new IllegalStateException("broken");
      }
    };
    FusionServer plain = server(null);
    for (FusionTracer tracer : List.of(failsToStart, failsToRecord)) {
      FusionServer traced = server(tracer);
      for (Map<String, Object> args : List.<Map<String, Object>>of(Map.of("id", "INV-0001"),
          Map.of("id", "INV-9999"), Map.of("id", 7))) {
        McpSchema.CallToolResult a = call(plain, "billing_get_invoice", args, RequestContext.empty());
        McpSchema.CallToolResult b = call(traced, "billing_get_invoice", args, RequestContext.empty());
        assertThat(b).isEqualTo(a);
      }
    }
  }

  @Test
  void theNoopTracerRecordsNothing() throws Exception {
    FusionSpan span = FusionTracer.NOOP.startSpan("x", TraceContext.EMPTY, Map.of());
    assertThat(span).isInstanceOf(NoopSpan.class);
    assertThat(span.withCurrent(() -> "ran")).isEqualTo("ran");
    assertThat(FusionTracer.NOOP.options()).isEqualTo(TraceOptions.DEFAULT);
  }

  private static McpSchema.CallToolResult call(FusionServer server, String tool, Map<String, ?> args,
      RequestContext request) {
    return dev.mcpfusion.core.server.Results.toMcp(server.edge().call(tool, args, request));
  }
}
