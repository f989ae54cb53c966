package dev.mcpfusion.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.otel.fixtures.Ops;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code FusionServer.call} runs the pipeline on the caller's thread, so the thread's OTel context
 * can be checked right after each call: the tool span's scope is closed on every path.
 */
class InMemoryCallTest {
  private final OtelHarness harness = new OtelHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  private FusionServer server() {
    return FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(harness.tools()))
        .tracer(harness.tracer(TraceOptions.DEFAULT))
        .build();
  }

  @Test
  void afterEveryCallTheThreadsContextIsTheRootAgain() {
    FusionServer server = server();
    for (String tool : new String[] {"ops_get_item", "ops_returned_error", "ops_explode", "ops_child_span"}) {
      Map<String, Object> args = tool.equals("ops_get_item") ? Map.of("id", "ITM-404") : Map.of();
      server.edge().call(tool, args, RequestContext.empty());
      assertThat(Context.current()).as(tool).isSameAs(Context.root());
      assertThat(Span.current().getSpanContext().isValid()).isFalse();
    }
    assertThat(harness.toolSpans()).hasSize(4);
    assertThat(harness.leaks).isEmpty();
  }

  @Test
  void theCallersCurrentSpanIsNotTheParentOnlyTheW3cContextIs() {
    FusionServer server = server();
    Span outer = harness.otel.getTracer("test").spanBuilder("outer").startSpan();
    try (Scope ignored = outer.makeCurrent()) {
      server.edge().call("ops_child_span", Map.of(), RequestContext.empty());
      assertThat(Span.current()).isSameAs(outer);
    } finally {
      outer.end();
    }
    SpanData tool = harness.onlyToolSpan();
    assertThat(tool.getParentSpanContext().isValid()).isFalse();
    assertThat(tool.getTraceId()).isNotEqualTo(outer.getSpanContext().getTraceId());
  }

  @Test
  void anUnknownToolCalledInMemoryIsTracedToo() {
    FusionServer server = server();
    assertThatThrownBy(() -> server.edge().call("nope", Map.of(), RequestContext.of(
        Map.of("traceparent", TraceParentTest.HEADER_VALID), null, "session-1", "2025-06-18")))
        .isInstanceOf(IllegalArgumentException.class);
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getName()).isEqualTo("tools/call nope");
    assertThat(span.getParentSpanId()).isEqualTo(TraceParentTest.HEADER_SPAN_ID);
    assertThat(OtelHarness.attr(span, "error.type")).isEqualTo("UNKNOWN_TOOL");
    assertThat(OtelHarness.attr(span, "mcp.session.id")).isEqualTo("session-1");
    assertThat(OtelHarness.attr(span, "mcp.protocol.version")).isEqualTo("2025-06-18");
    assertThat(Context.current()).isSameAs(Context.root());
  }

  @Test
  void sessionAndProtocolVersionAreRecordedWhenKnown() {
    server().edge().call("ops_get_item", Map.of("id", "ITM-1"),
        RequestContext.of(Map.of(), Map.of(), "session-7", "2025-11-25"));
    SpanData span = harness.onlyToolSpan();
    assertThat(OtelHarness.attr(span, "mcp.session.id")).isEqualTo("session-7");
    assertThat(OtelHarness.attr(span, "mcp.protocol.version")).isEqualTo("2025-11-25");
  }
}
