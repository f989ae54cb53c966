package dev.mcpfusion.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.otel.fixtures.Ops;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The tester runs a call on the calling thread, through the production edge, so the thread's OTel
 * context can be checked right after each call: the tool span's scope is closed on every path.
 */
class CallerThreadContextTest {
  private final OtelHarness harness = new OtelHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  private FusionTester tester() {
    return FusionTester.of(FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(harness.tools()))
        .tracer(harness.tracer(TraceOptions.DEFAULT)));
  }

  @Test
  void afterEveryCallTheThreadsContextIsTheRootAgain() {
    try (FusionTester tester = tester()) {
      for (String tool : new String[] {"ops_get_item", "ops_returned_error", "ops_explode", "ops_child_span"}) {
        Map<String, Object> args = tool.equals("ops_get_item") ? Map.of("id", "ITM-404") : Map.of();
        tester.callTool(tool, args);
        assertThat(Context.current()).as(tool).isSameAs(Context.root());
        assertThat(Span.current().getSpanContext().isValid()).isFalse();
      }
    }
    assertThat(harness.toolSpans()).hasSize(4);
    assertThat(harness.leaks).isEmpty();
  }

  @Test
  void theCallersCurrentSpanIsNotTheParentOnlyTheW3cContextIs() {
    try (FusionTester tester = tester()) {
      tester.listTools(); // the handshake and a first request, before the span under test
      Span outer = harness.otel.getTracer("test").spanBuilder("outer").startSpan();
      try (Scope ignored = outer.makeCurrent()) {
        tester.callTool("ops_child_span", Map.of());
        assertThat(Span.current()).isSameAs(outer);
      } finally {
        outer.end();
      }
      SpanData tool = harness.onlyToolSpan();
      assertThat(tool.getParentSpanContext().isValid()).isFalse();
      assertThat(tool.getTraceId()).isNotEqualTo(outer.getSpanContext().getTraceId());
    }
  }

  @Test
  void anUnknownToolIsTracedWithTheHeadersParent() {
    try (FusionTester tester = tester().header("traceparent", TraceParentTest.HEADER_VALID)) {
      ToolResult result = tester.callTool("nope", Map.of());
      assertThat(result.jsonRpcError()).isNotNull();
      assertThat(result.jsonRpcError().code()).isEqualTo(-32602);
    }
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getName()).isEqualTo("tools/call nope");
    assertThat(span.getParentSpanId()).isEqualTo(TraceParentTest.HEADER_SPAN_ID);
    assertThat(OtelHarness.attr(span, "error.type")).isEqualTo("UNKNOWN_TOOL");
    assertThat(OtelHarness.attr(span, "mcp.protocol.version")).isEqualTo("2025-11-25");
    assertThat(Context.current()).isSameAs(Context.root());
  }

  @Test
  void sessionAndProtocolVersionAreRecorded() {
    try (FusionTester tester = tester().protocolVersion("2025-06-18")) {
      tester.callTool("ops_get_item", Map.of("id", "ITM-1"));
    }
    SpanData span = harness.onlyToolSpan();
    assertThat(OtelHarness.attr(span, "mcp.session.id")).isNotBlank();
    assertThat(OtelHarness.attr(span, "mcp.protocol.version")).isEqualTo("2025-06-18");
  }

  @Test
  void aModernCallRecordsTheModernVersion() {
    try (FusionTester tester = tester().protocolVersion(FusionTester.MODERN)) {
      tester.callTool("ops_get_item", Map.of("id", "ITM-1"));
    }
    assertThat(OtelHarness.attr(harness.onlyToolSpan(), "mcp.protocol.version")).isEqualTo("2026-07-28");
  }
}
