package dev.mcpfusion.framework.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.Root;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.otel.OtelFusionMeter;
import dev.mcpfusion.otel.OtelFusionTracer;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.PendingCall;
import dev.mcpfusion.testing.ToolResult;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenTelemetry MCP semantic conventions (semantic-conventions-genai v0.1.0) on real MCP
 * traffic, exported to memory: the span of each request and notification, its parent from
 * {@code params._meta} or the headers, the CLIENT span of a request to the client, and the
 * metrics with their attributes for a success, a validation error, a timeout and a refusal.
 */
class McpConventionsTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT = "00f067aa0ba902b7";
  private static final String TRACEPARENT = "00-" + TRACE + "-" + PARENT + "-01";
  private static final Map<String, Object> META = Map.of("traceparent", TRACEPARENT);

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private OpenTelemetrySdk otel;
  private DeskTools desk;
  private FusionTester tester;

  @BeforeEach
  void start() {
    otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
        .build();
    desk = new DeskTools();
    tester = FusionTester.of(FusionServer.builder("desk", "1.0.0")
            .register(desk)
            .redact(Redaction.detecting(Detector.CARD))
            .meter(OtelFusionMeter.of(otel)))
        .tracer(OtelFusionTracer.of(otel));
  }

  @AfterEach
  void stop() {
    desk.release.countDown();
    tester.close();
    otel.close();
  }

  // ---- spans -----------------------------------------------------------------------------------

  @Test
  void toolsCallSpanHasTheConventionalNameAttributesAndMetaParent() {
    ToolResult result = tester.callTool("desk_echo", Map.of("text", "hi"), META);

    assertThat(result.isSuccess()).isTrue();
    SpanData span = only("tools/call desk_echo");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertServerAttributes(span, "tools/call");
    assertThat(attr(span, "gen_ai.tool.name")).isEqualTo("desk_echo");
    assertThat(attr(span, "gen_ai.operation.name")).isEqualTo("execute_tool");
    // Our own and OpenInference's dialects stay beside the conventions.
    assertThat(attr(span, "openinference.span.kind")).isEqualTo("TOOL");
    assertThat(attr(span, "mcpfusion.router")).isEqualTo("desk");
    assertParent(span);
  }

  @Test
  void promptsGetSpanHasThePromptNameAndMetaParent() {
    McpResponse response = tester.request("prompts/get",
        Map.of("name", "greeting", "arguments", Map.of("name", "Ada"), "_meta", META));

    assertThat(response.isError()).isFalse();
    SpanData span = only("prompts/get greeting");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertServerAttributes(span, "prompts/get");
    assertThat(attr(span, "gen_ai.prompt.name")).isEqualTo("greeting");
    assertParent(span);
  }

  @Test
  void resourcesReadSpanHasTheUriAndMetaParent() {
    McpResponse response = tester.request("resources/read",
        Map.of("uri", "desk://tickets/7", "_meta", META));

    assertThat(response.isError()).isFalse();
    SpanData span = only("resources/read desk://tickets/{id}");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertServerAttributes(span, "resources/read");
    assertThat(attr(span, "mcp.resource.uri")).isEqualTo("desk://tickets/7");
    assertParent(span);
  }

  @Test
  void completionSpanNamesThePromptAndHonoursMetaParent() {
    McpResponse response = tester.request("completion/complete", Map.of(
        "ref", Map.of("type", "ref/prompt", "name", "greeting"),
        "argument", Map.of("name", "name", "value", "A"), "_meta", META));

    assertThat(response.isError()).isFalse();
    SpanData span = only("completion/complete greeting");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertServerAttributes(span, "completion/complete");
    assertThat(attr(span, "gen_ai.prompt.name")).isEqualTo("greeting");
    assertParent(span);
  }

  @Test
  void initializeSpanTakesItsParentFromTheHeaders() {
    FusionTester headed = FusionTester.of(FusionServer.builder("desk", "1.0.0").register(desk))
        .tracer(OtelFusionTracer.of(otel))
        .header("traceparent", TRACEPARENT);
    try {
      headed.listTools();
    } finally {
      headed.close();
    }

    SpanData span = only("initialize");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(attr(span, "mcp.method.name")).isEqualTo("initialize");
    assertThat(attr(span, "jsonrpc.request.id")).isNotBlank();
    assertThat(attr(span, "mcp.session.id")).isNotBlank();
    // Known only once answered: the version the handshake negotiated.
    assertThat(attr(span, "mcp.protocol.version")).matches("\\d{4}-\\d{2}-\\d{2}");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(io.opentelemetry.api.trace.StatusCode.OK);
    assertParent(span);
    // The notification that follows, and the list, get a span each under the same parent.
    assertParent(only("notifications/initialized"));
    assertParent(only("tools/list"));
  }

  @Test
  void cancelledNotificationSpanTakesItsParentFromTheHeaders() throws Exception {
    tester.header("traceparent", TRACEPARENT);
    PendingCall call = tester.callAsync("desk_hold", Map.of(), Map.of());
    assertThat(desk.holding.await(5, TimeUnit.SECONDS)).isTrue();

    call.cancel();

    SpanData span = only("notifications/cancelled");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(attr(span, "mcp.method.name")).isEqualTo("notifications/cancelled");
    // A notification has no id.
    assertThat(attr(span, "jsonrpc.request.id")).isNull();
    assertThat(attr(span, "mcp.session.id")).isNotBlank();
    assertParent(span);
  }

  @Test
  void samplingRequestIsAClientSpanUnderTheToolSpanWithItsTraceparentSent() {
    tester.answerSampling("yes");

    ToolResult result = tester.callTool("desk_ask", Map.of(), META);

    assertThat(result.isSuccess()).isTrue();
    SpanData tool = only("tools/call desk_ask");
    SpanData sampling = only("sampling/createMessage");
    assertThat(sampling.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(attr(sampling, "mcp.method.name")).isEqualTo("sampling/createMessage");
    assertThat(attr(sampling, "jsonrpc.request.id")).isNotBlank();
    assertThat(sampling.getTraceId()).isEqualTo(TRACE);
    assertThat(sampling.getParentSpanId()).isEqualTo(tool.getSpanId());
    assertThat(sampling.getStatus().getStatusCode())
        .isEqualTo(io.opentelemetry.api.trace.StatusCode.OK);
    // The client's span can join the trace: the request carries the CLIENT span as its parent.
    FusionTester.ClientRequest sent = tester.clientRequests().get(0);
    assertThat(((Map<?, ?>) sent.params().get("_meta")).get("traceparent"))
        .isEqualTo("00-" + TRACE + "-" + sampling.getSpanId() + "-01");
  }

  @Test
  void elicitationRequestIsAClientSpanUnderTheToolSpanWithItsTraceparentSent() {
    tester.acceptElicitation(Map.of("ok", true));

    ToolResult result = tester.callTool("desk_confirm", Map.of(), META);

    assertThat(result.isSuccess()).isTrue();
    assertThat(result.dataText()).isEqualTo("confirmed");
    SpanData tool = only("tools/call desk_confirm");
    SpanData elicit = only("elicitation/create");
    assertThat(elicit.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(attr(elicit, "mcp.method.name")).isEqualTo("elicitation/create");
    assertThat(elicit.getTraceId()).isEqualTo(TRACE);
    assertThat(elicit.getParentSpanId()).isEqualTo(tool.getSpanId());
    FusionTester.ClientRequest sent = tester.clientRequests().get(0);
    assertThat(((Map<?, ?>) sent.params().get("_meta")).get("traceparent"))
        .isEqualTo("00-" + TRACE + "-" + elicit.getSpanId() + "-01");
  }

  @Test
  void rootsRequestIsAClientSpanUnderTheToolSpanWithItsTraceparentSent() {
    tester.roots(new Root("file:///desk", "desk"));

    ToolResult result = tester.callTool("desk_roots", Map.of(), META);

    assertThat(result.isSuccess()).isTrue();
    assertThat(result.dataText()).isEqualTo("file:///desk");
    SpanData tool = only("tools/call desk_roots");
    SpanData roots = only("roots/list");
    assertThat(roots.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(attr(roots, "mcp.method.name")).isEqualTo("roots/list");
    assertThat(attr(roots, "jsonrpc.request.id")).isNotBlank();
    assertThat(roots.getTraceId()).isEqualTo(TRACE);
    assertThat(roots.getParentSpanId()).isEqualTo(tool.getSpanId());
    assertThat(roots.getStatus().getStatusCode())
        .isEqualTo(io.opentelemetry.api.trace.StatusCode.OK);
    FusionTester.ClientRequest sent = tester.clientRequests().get(0);
    assertThat(sent.method()).isEqualTo("roots/list");
    assertThat(((Map<?, ?>) sent.params().get("_meta")).get("traceparent"))
        .isEqualTo("00-" + TRACE + "-" + roots.getSpanId() + "-01");
  }

  @Test
  void progressAndLogsLeaveInsideTheCallsSpanWithNoSpanOfTheirOwn() {
    tester.setLogLevel(dev.mcpfusion.core.LogLevel.DEBUG);
    Map<String, Object> meta = new java.util.LinkedHashMap<>(META);
    meta.put("progressToken", "p-1");

    ToolResult result = tester.callTool("desk_report", Map.of(), meta);

    assertThat(result.isSuccess()).isTrue();
    SpanData call = only("tools/call desk_report");
    // The handler talked back with the call's span current: its own spans and logs nest under it.
    assertThat(desk.reportedUnder).isEqualTo(call.getSpanId());
    assertThat(tester.progress()).extracting(FusionTester.Progress::message).containsExactly("halfway");
    assertThat(tester.logs()).extracting(FusionTester.LogMessage::data).contains("working");
    assertThat(spans.getFinishedSpanItems()).extracting(SpanData::getName)
        .doesNotContain("notifications/progress", "notifications/message");
  }

  @Test
  void anAttachmentIsPartOfTheCallsSpanAndCountsInItsResponseSize() {
    ToolResult result = tester.callTool("desk_attach", Map.of());

    assertThat(result.raw()).contains("the attached note");
    SpanData call = only("tools/call desk_attach");
    assertThat(call.getStatus().getStatusCode()).isEqualTo(io.opentelemetry.api.trace.StatusCode.OK);
    assertThat(call.getAttributes().get(AttributeKey.longKey("mcpfusion.response_size")))
        .isEqualTo((long) result.raw().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
  }

  @Test
  void aClientThatAnswersSamplingWithAnErrorEndsTheClientSpanWithItsErrorType() {
    tester.answerSampling(params -> {
      throw new IllegalStateException("no model here");
    });

    ToolResult result = tester.callTool("desk_ask", Map.of(), META);

    assertThat(result.isError()).isTrue();
    assertClientSpanFailed(only("sampling/createMessage"), only("tools/call desk_ask"), result);
  }

  @Test
  void aClientThatAnswersElicitationWithAnErrorEndsTheClientSpanWithItsErrorType() {
    tester.answerElicitation(params -> {
      throw new IllegalStateException("no form here");
    });

    ToolResult result = tester.callTool("desk_confirm", Map.of(), META);

    assertThat(result.isError()).isTrue();
    assertClientSpanFailed(only("elicitation/create"), only("tools/call desk_confirm"), result);
  }

  /** The CLIENT span of a request the client answered with a JSON-RPC error, under its call. */
  private void assertClientSpanFailed(SpanData client, SpanData call, ToolResult result) {
    // The code the client answered with, as the tester's client sends it.
    Map<?, ?> error = clientError();
    String code = String.valueOf(((Number) error.get("code")).intValue());
    assertThat(client.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(client.getParentSpanId()).isEqualTo(call.getSpanId());
    assertThat(attr(client, "error.type")).isEqualTo(code);
    assertThat(attr(client, "rpc.response.status_code")).isEqualTo(code);
    assertThat(client.getStatus().getStatusCode())
        .isNotEqualTo(io.opentelemetry.api.trace.StatusCode.OK);
    // The call's own span says how the call ended: the handler's CLIENT_ERROR.
    assertThat(attr(call, "error.type")).isEqualTo(result.errorCode());
    assertThat(result.errorCode()).isEqualTo("CLIENT_ERROR");
  }

  /** The {@code error} of the client's answer to the server's request, from the wire. */
  private Map<?, ?> clientError() {
    return tester.sentMessages().stream()
        .map(m -> (Map<?, ?>) dev.mcpfusion.json.Json.parse(m))
        .filter(m -> m.get("error") instanceof Map<?, ?>)
        .map(m -> (Map<?, ?>) m.get("error"))
        .findFirst().orElseThrow(() -> new AssertionError("the client sent no error"));
  }

  @Test
  void inThe2026EraACallIsTheSameSpanWithTheModernVersionAndNoSession() {
    try (FusionTester modern = FusionTester.of(FusionServer.builder("desk", "1.0.0")
            .register(new DeskTools()).meter(OtelFusionMeter.of(otel)))
        .tracer(OtelFusionTracer.of(otel)).protocolVersion(FusionTester.MODERN)) {
      ToolResult result = modern.callTool("desk_echo", Map.of("text", "hi"), META);

      assertThat(result.isSuccess()).isTrue();
      SpanData span = only("tools/call desk_echo");
      assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(attr(span, "mcp.method.name")).isEqualTo("tools/call");
      assertThat(attr(span, "mcp.protocol.version")).isEqualTo(FusionTester.MODERN);
      assertThat(attr(span, "gen_ai.tool.name")).isEqualTo("desk_echo");
      // Stateless: there is no session to name.
      assertThat(attr(span, "mcp.session.id")).isNull();
      assertParent(span);
      assertThat(operation("tools/call", "desk_echo").getAttributes()
          .get(key("mcp.protocol.version"))).isEqualTo(FusionTester.MODERN);
    }
  }

  // ---- metrics ---------------------------------------------------------------------------------

  @Test
  void successIsRecordedByMethodToolAndProtocolVersionWithoutErrorType() {
    tester.callTool("desk_echo", Map.of("text", "hi"));

    Attributes a = operation("tools/call", "desk_echo").getAttributes();
    assertThat(a.get(key("error.type"))).isNull();
    assertThat(a.get(key("mcp.protocol.version"))).matches("\\d{4}-\\d{2}-\\d{2}");
    assertThat(a.asMap()).doesNotContainKeys(key("mcp.session.id"), key("jsonrpc.request.id"));
  }

  @Test
  void validationErrorIsRecordedWithItsErrorType() {
    ToolResult result = tester.callTool("desk_echo", Map.of("text", ""));

    assertThat(result.isError()).isTrue();
    assertThat(operation("tools/call", "desk_echo").getAttributes().get(key("error.type")))
        .isEqualTo("VALIDATION_ERROR");
  }

  @Test
  void timeoutIsRecordedWithItsErrorTypeAndCounted() {
    tester.callTool("desk_slow", Map.of());

    assertThat(operation("tools/call", "desk_slow").getAttributes().get(key("error.type")))
        .isEqualTo("TIMEOUT");
    assertThat(counter(McpMetrics.CALLS_TIMED_OUT, "desk_slow")).isEqualTo(1);
  }

  @Test
  void refusalByTheGateIsRecordedWithItsErrorTypeAndCounted() throws Exception {
    PendingCall first = tester.callAsync("desk_hold", Map.of(), Map.of());
    assertThat(desk.holding.await(5, TimeUnit.SECONDS)).isTrue();

    ToolResult refused = tester.callTool("desk_hold", Map.of());
    desk.release.countDown();
    first.await(Duration.ofSeconds(5));

    assertThat(refused.isError()).isTrue();
    // The first call's duration is recorded when its trace ends, just after its reply is written:
    // wait for it (bounded) rather than race it.
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    List<HistogramPointData> points = operations("tools/call", "desk_hold");
    while (points.size() < 2 && System.nanoTime() < end) {
      Thread.sleep(10);
      points = operations("tools/call", "desk_hold");
    }
    assertThat(points).extracting(p -> p.getAttributes().get(key("error.type")))
        .containsExactlyInAnyOrder("SERVER_BUSY", null);
    assertThat(counter(McpMetrics.CALLS_REFUSED, "desk_hold")).isEqualTo(1);
  }

  @Test
  void aReplyTheByteCapCutIsCounted() {
    tester.callTool("desk_big", Map.of());

    assertThat(counter(McpMetrics.REPLIES_CAPPED, "desk_big")).isEqualTo(1);
  }

  @Test
  void redactionsAreCountedByValueMasked() {
    ToolResult result = tester.callTool("desk_card", Map.of());

    assertThat(result.dataText()).doesNotContain("4111 1111 1111 1111");
    assertThat(counter(McpMetrics.REDACTIONS, "desk_card")).isEqualTo(1);
  }

  @Test
  void unknownToolNamesCollapseIntoOneLabel() {
    tester.callTool("no_such_tool", Map.of());
    tester.callTool("another_invented_one", Map.of());

    List<HistogramPointData> points = operations("tools/call", McpMetrics.OTHER);
    assertThat(points).hasSize(1);
    assertThat(points.get(0).getCount()).isEqualTo(2);
  }

  @Test
  void operationHistogramUsesTheAdvisedBuckets() {
    tester.callTool("desk_echo", Map.of("text", "hi"));

    assertThat(operation("tools/call", "desk_echo").getBoundaries())
        .isEqualTo(McpMetrics.DURATION_BUCKETS);
  }

  @Test
  void sessionDurationIsRecordedWhenTheSessionCloses() {
    tester.callTool("desk_echo", Map.of("text", "hi"));
    tester.close();

    MetricData data = metric(McpMetrics.SERVER_SESSION_DURATION);
    assertThat(data.getUnit()).isEqualTo("s");
    HistogramPointData point = data.getHistogramData().getPoints().iterator().next();
    assertThat(point.getCount()).isEqualTo(1);
    assertThat(point.getAttributes().get(key("mcp.protocol.version"))).matches("\\d{4}-\\d{2}-\\d{2}");
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private SpanData only(String name) {
    List<SpanData> named = spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name)).toList();
    assertThat(named).as("spans named %s among %s", name, spans.getFinishedSpanItems()).hasSize(1);
    return named.get(0);
  }

  private static void assertServerAttributes(SpanData span, String method) {
    assertThat(attr(span, "mcp.method.name")).isEqualTo(method);
    assertThat(attr(span, "jsonrpc.request.id")).isNotBlank();
    assertThat(attr(span, "mcp.session.id")).isNotBlank();
    assertThat(attr(span, "mcp.protocol.version")).matches("\\d{4}-\\d{2}-\\d{2}");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(io.opentelemetry.api.trace.StatusCode.OK);
  }

  private static void assertParent(SpanData span) {
    assertThat(span.getTraceId()).isEqualTo(TRACE);
    assertThat(span.getParentSpanId()).isEqualTo(PARENT);
    assertThat(span.getParentSpanContext().isRemote()).isTrue();
  }

  private static String attr(SpanData span, String key) {
    return span.getAttributes().get(key(key));
  }

  private static AttributeKey<String> key(String name) {
    return AttributeKey.stringKey(name);
  }

  private MetricData metric(String name) {
    return metrics.collectAllMetrics().stream().filter(m -> m.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name));
  }

  private List<HistogramPointData> operations(String method, String tool) {
    MetricData data = metric(McpMetrics.SERVER_OPERATION_DURATION);
    assertThat(data.getUnit()).isEqualTo("s");
    return data.getHistogramData().getPoints().stream()
        .filter(p -> method.equals(p.getAttributes().get(key("mcp.method.name")))
            && tool.equals(p.getAttributes().get(key("gen_ai.tool.name"))))
        .map(p -> (HistogramPointData) p).toList();
  }

  private HistogramPointData operation(String method, String tool) {
    List<HistogramPointData> points = operations(method, tool);
    assertThat(points).hasSize(1);
    return points.get(0);
  }

  private long counter(String name, String target) {
    return metric(name).getLongSumData().getPoints().stream()
        .filter(p -> target.equals(p.getAttributes().get(key(McpMetrics.TARGET))))
        .mapToLong(LongPointData::getValue).sum();
  }
}
