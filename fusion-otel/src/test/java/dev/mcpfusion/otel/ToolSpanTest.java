package dev.mcpfusion.otel;

import static dev.mcpfusion.otel.OtelHarness.attr;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.otel.fixtures.Ops;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One span per call, its attributes in three dialects, its status. */
class ToolSpanTest {
  private final OtelHarness harness = new OtelHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  /**
   * One row per outcome.
   *
   * @param action the expected {@code mcpfusion.action}, {@code null} when it was never resolved
   * @param errorType the expected {@code error.type}, {@code null} on success
   * @param message the expected {@code mcpfusion.error.message}, {@code null} when none
   */
  record Case(String name, Exposition exposition, String tool, Map<String, Object> args,
      String router, String action, StatusCode status, String errorType, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("success", Exposition.FLAT, "ops_get_item", Map.of("id", "ITM-1"),
            "ops", "get_item", StatusCode.OK, null, null),
        new Case("success, grouped", Exposition.GROUPED, "ops", args("action", "get_item", "id", "ITM-1"),
            "ops", "get_item", StatusCode.OK, null, null),
        new Case("validation failure", Exposition.FLAT, "ops_get_item", Map.of("id", "x-" + Ops.SENTINEL),
            "ops", "get_item", StatusCode.UNSET, "VALIDATION_ERROR",
            "Invalid arguments: id must match \"ITM-\\d+\""),
        new Case("unknown action", Exposition.GROUPED, "ops", args("action", "refund_all"),
            "ops", null, StatusCode.UNSET, "UNKNOWN_ACTION",
            "The action \"refund_all\" does not exist in ops."),
        new Case("missing discriminator", Exposition.GROUPED, "ops", Map.of(),
            "ops", null, StatusCode.UNSET, "MISSING_DISCRIMINATOR",
            "The required field \"action\" is missing."),
        new Case("unknown tool", Exposition.FLAT, "ops_nope", Map.of(),
            null, null, StatusCode.UNSET, "UNKNOWN_TOOL", "The tool \"ops_nope\" does not exist."),
        new Case("thrown FusionError", Exposition.FLAT, "ops_get_item", Map.of("id", "ITM-404"),
            "ops", "get_item", StatusCode.UNSET, "NOT_FOUND", "Item \"ITM-404\" does not exist."),
        new Case("returned FusionError", Exposition.FLAT, "ops_returned_error", Map.of(),
            "ops", "returned_error", StatusCode.UNSET, "CONFLICT", "The item is locked."),
        new Case("unexpected exception", Exposition.FLAT, "ops_explode", Map.of(),
            "ops", "explode", StatusCode.ERROR, "INTERNAL_ERROR", null),
        new Case("unexpected exception, grouped", Exposition.GROUPED, "ops", args("action", "explode"),
            "ops", "explode", StatusCode.ERROR, "INTERNAL_ERROR", null));
  }

  private static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void oneSpanPerCallWithItsAttributesAndStatus(Case c) {
    FusionTester tester = harness.tester(c.exposition());
    ToolResult result = tester.callTool(c.tool(), c.args());

    SpanData span = harness.onlyToolSpan();
    assertThat(span.getName()).isEqualTo("tools/call " + c.tool());
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(span.getInstrumentationScopeInfo().getName()).isEqualTo(OtelFusionTracer.INSTRUMENTATION_SCOPE);
    assertThat(span.getParentSpanContext().isValid()).as("no parent sent: a root span").isFalse();
    assertThat(span.hasEnded()).isTrue();

    assertThat(attr(span, "mcp.method.name")).isEqualTo("tools/call");
    assertThat(attr(span, "gen_ai.operation.name")).isEqualTo("execute_tool");
    assertThat(attr(span, "gen_ai.tool.name")).isEqualTo(c.tool());
    assertThat(attr(span, "openinference.span.kind")).isEqualTo("TOOL");
    assertThat(attr(span, "tool.name")).isEqualTo(c.tool());
    assertThat(attr(span, "mcpfusion.exposition")).isEqualTo(c.exposition() == Exposition.FLAT ? "flat" : "grouped");
    assertThat(attr(span, "mcpfusion.router")).isEqualTo(c.router());
    assertThat(attr(span, "mcpfusion.action")).isEqualTo(c.action());
    assertThat(span.getAttributes().get(AttributeKey.doubleKey("mcpfusion.duration_ms"))).isNotNull().isGreaterThanOrEqualTo(0.0);
    assertThat(span.getAttributes().get(AttributeKey.longKey("mcpfusion.response_size"))).isNotNull().isPositive();
    if (c.router() != null) {
      // known tools run in the SDK session, which knows the negotiated protocol version
      assertThat(attr(span, "mcp.protocol.version")).isNotBlank();
    }
    assertThat(span.getAttributes().asMap().keySet()).extracting(AttributeKey::getKey)
        .noneMatch(k -> k.contains("token") || k.contains("cost") || k.contains("argument"));

    assertThat(span.getStatus().getStatusCode()).isEqualTo(c.status());
    assertThat(span.getStatus().getDescription()).isEmpty();
    assertThat(attr(span, "error.type")).isEqualTo(c.errorType());
    assertThat(attr(span, "mcpfusion.error.message")).isEqualTo(c.message());

    if (c.status() == StatusCode.ERROR) {
      assertThat(span.getEvents()).hasSize(1);
      EventData event = span.getEvents().get(0);
      assertThat(event.getName()).isEqualTo("exception");
      assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.type")))
          .isEqualTo(IllegalStateException.class.getName());
      assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.stacktrace")))
          .startsWith("java.lang.IllegalStateException\n")
          .contains("Ops$OpsTools.explode")
          .contains("Caused by: java.lang.IllegalArgumentException");
      assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message"))).isNull();
      Matcher incident = Pattern.compile("incident ([0-9a-f]{12})").matcher(result.errorText());
      assertThat(incident.find()).isTrue();
      assertThat(attr(span, "mcpfusion.incident")).isEqualTo(incident.group(1));
    } else {
      assertThat(span.getEvents()).isEmpty();
      assertThat(attr(span, "mcpfusion.incident")).isNull();
    }

    assertThat(OtelHarness.allValues(span)).noneMatch(v -> v != null && v.contains(Ops.SENTINEL));
    assertThat(OtelHarness.allValues(span)).noneMatch(v -> v != null && v.contains("hunter2"));
    assertThat(harness.leaks).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theReplyIsByteIdenticalWithTracingOnAndOff(Case c) {
    String traced = masked(harness.tester(c.exposition()).callTool(c.tool(), c.args()).raw());
    String untraced = masked(harness.untraced(c.exposition()).callTool(c.tool(), c.args()).raw());
    assertThat(traced).isNotBlank().isEqualTo(untraced);
    assertThat(harness.toolSpans()).hasSize(1);
  }

  /** The JSON-RPC id (per client session) and the random incident id are the only differences allowed. */
  private static String masked(String raw) {
    return raw.replaceFirst("^\\{\"jsonrpc\":\"2\\.0\",\"id\":(\"[^\"]*\"|\\d+)", "{\"jsonrpc\":\"2.0\",\"id\":ID")
        .replaceAll("incident [0-9a-f]{12}", "incident X");
  }

  @Test
  void callsInARowEachGetTheirOwnSpanAndNoScopeLeaks() {
    FusionTester tester = harness.tester(Exposition.FLAT);
    for (int i = 0; i < 20; i++) {
      tester.callTool("ops_explode", Map.of());
      tester.callTool("ops_get_item", Map.of("id", "ITM-" + i));
      tester.callTool("ops_child_span", Map.of());
    }
    List<SpanData> spans = harness.toolSpans();
    assertThat(spans).hasSize(60);
    assertThat(spans).extracting(s -> s.getTraceId()).doesNotHaveDuplicates();
    assertThat(harness.leaks).isEmpty();
  }

  @Test
  void aSpanCreatedInTheHandlerIsAChildOfTheToolSpan() {
    harness.tester(Exposition.FLAT).callTool("ops_child_span", Map.of());
    SpanData tool = harness.onlyToolSpan();
    SpanData child = harness.exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals("ops.child-work")).findFirst().orElseThrow();
    assertThat(child.getTraceId()).isEqualTo(tool.getTraceId());
    assertThat(child.getParentSpanId()).isEqualTo(tool.getSpanId());
    assertThat(child.getKind()).isEqualTo(SpanKind.INTERNAL);
    assertThat(harness.leaks).isEmpty();
  }
}
