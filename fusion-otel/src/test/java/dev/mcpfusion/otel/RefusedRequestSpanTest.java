package dev.mcpfusion.otel;

import static dev.mcpfusion.otel.OtelHarness.attr;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.otel.fixtures.Briefs;
import dev.mcpfusion.otel.fixtures.Ops;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code tools/call}, {@code prompts/get}, {@code resources/read} or {@code completion/complete}
 * refused before it names a target (no {@code name}, {@code uri} or {@code ref}, or one of the
 * wrong type, malformed {@code arguments}) still gets its SERVER span — named after the method
 * alone, as the OpenTelemetry MCP conventions name a request without a target — with
 * {@code error.type} and {@code rpc.response.status_code}, and its operation's duration; and a
 * request that does name a target, known or not, gets exactly one span, never a second for its
 * answer. In the 2025 session era and the stateless 2026-07-28 era.
 */
class RefusedRequestSpanTest {
  private static final String INVALID_PARAMS = "-32602";

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private OpenTelemetrySdk otel;
  private final List<FusionTester> testers = new ArrayList<>();

  @BeforeEach
  void start() {
    otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
        .build();
  }

  @AfterEach
  void stop() {
    testers.forEach(FusionTester::close);
    otel.close();
  }

  /** A server with tools, prompts, resources and completions, traced and metered, in an era. */
  private FusionTester tester(boolean modern) {
    FusionTester t = FusionTester.of(FusionServer.builder("ops", "1")
            .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools(otel.getTracer("handler-code"))))
            .register(Briefs.BriefPrompts_Features.bind(
                new Briefs.BriefPrompts(otel.getTracer("handler-code"))))
            .meter(OtelFusionMeter.of(otel)))
        .tracer(OtelFusionTracer.of(otel));
    if (modern) {
      t.protocolVersion(FusionTester.MODERN);
    }
    testers.add(t);
    return t;
  }

  static Stream<Arguments> refusals() {
    List<Arguments> cases = new ArrayList<>();
    for (boolean modern : new boolean[] {false, true}) {
      cases.add(Arguments.of(modern, "tools/call", Map.of("arguments", Map.of())));
      cases.add(Arguments.of(modern, "tools/call", Map.of("name", 7)));
      cases.add(Arguments.of(modern, "tools/call",
          Map.of("name", "ops_get_item", "arguments", "not an object")));
      cases.add(Arguments.of(modern, "prompts/get", Map.of("arguments", Map.of("topic", "ops"))));
      cases.add(Arguments.of(modern, "prompts/get", Map.of("name", List.of("brief"))));
      cases.add(Arguments.of(modern, "resources/read", Map.of()));
      cases.add(Arguments.of(modern, "resources/read", Map.of("uri", 42)));
      cases.add(Arguments.of(modern, "completion/complete",
          Map.of("argument", Map.of("name", "topic", "value", "o"))));
      cases.add(Arguments.of(modern, "completion/complete",
          Map.of("ref", "brief", "argument", Map.of("name", "topic", "value", "o"))));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "modern={0} {1} {2}")
  @MethodSource("refusals")
  void aRequestRefusedBeforeItNamesATargetHasASpanNamedAfterItsMethodAndADuration(boolean modern,
      String method, Map<String, ?> params) {
    McpResponse response = tester(modern).request(method, params);

    assertThat(response.isError()).as(response.raw()).isTrue();
    assertThat(response.errorCode()).isEqualTo(-32602);
    SpanData span = only(method);
    assertThat(span.getName()).isEqualTo(method);
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(attr(span, "mcp.method.name")).isEqualTo(method);
    assertThat(attr(span, "jsonrpc.request.id")).isEqualTo(id(response.raw()));
    assertThat(attr(span, "error.type")).isEqualTo(INVALID_PARAMS);
    assertThat(attr(span, "rpc.response.status_code")).isEqualTo(INVALID_PARAMS);
    // The agent's mistake, recoverable: no page for anyone.
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    assertThat(span.getAttributes().get(AttributeKey.longKey("mcpfusion.response_size")))
        .isEqualTo((long) response.raw().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    if (modern) {
      assertThat(attr(span, "mcp.protocol.version")).isEqualTo(FusionTester.MODERN);
      assertThat(attr(span, "mcp.session.id")).isNull();
    } else {
      assertThat(attr(span, "mcp.protocol.version")).matches("\\d{4}-\\d{2}-\\d{2}");
      assertThat(attr(span, "mcp.session.id")).isNotBlank();
    }

    List<HistogramPointData> points = operations(method);
    assertThat(points).hasSize(1);
    Attributes labels = points.get(0).getAttributes();
    assertThat(points.get(0).getCount()).isEqualTo(1);
    assertThat(labels.get(AttributeKey.stringKey("error.type"))).isEqualTo(INVALID_PARAMS);
    assertThat(labels.get(AttributeKey.stringKey("rpc.response.status_code"))).isEqualTo(INVALID_PARAMS);
    assertThat(labels.get(AttributeKey.stringKey("gen_ai.tool.name"))).isNull();
    assertThat(labels.get(AttributeKey.stringKey("gen_ai.prompt.name"))).isNull();
  }

  static Stream<Arguments> targeted() {
    List<Arguments> cases = new ArrayList<>();
    for (boolean modern : new boolean[] {false, true}) {
      cases.add(Arguments.of(modern, "tools/call", Map.of("name", "ops_get_item",
          "arguments", Map.of("id", "ITM-1")), "tools/call ops_get_item"));
      cases.add(Arguments.of(modern, "tools/call", Map.of("name", "ops_nope"), "tools/call ops_nope"));
      cases.add(Arguments.of(modern, "prompts/get", Map.of("name", "brief",
          "arguments", Map.of("topic", "ops")), "prompts/get brief"));
      cases.add(Arguments.of(modern, "prompts/get", Map.of("name", "nope"), "prompts/get nope"));
      cases.add(Arguments.of(modern, "prompts/get", Map.of("name", "brief",
          "arguments", "not an object"), "prompts/get brief"));
      cases.add(Arguments.of(modern, "resources/read", Map.of("uri", "ops://readme"),
          "resources/read ops://readme"));
      // An unknown URI: the span is named after the method alone, and is still the only one.
      cases.add(Arguments.of(modern, "resources/read", Map.of("uri", "ops://nothing"),
          "resources/read"));
      cases.add(Arguments.of(modern, "completion/complete", Map.of(
          "ref", Map.of("type", "ref/prompt", "name", "brief"),
          "argument", Map.of("name", "topic", "value", "o")), "completion/complete brief"));
      cases.add(Arguments.of(modern, "completion/complete", Map.of(
          "ref", Map.of("type", "ref/prompt", "name", "brief"),
          "argument", Map.of("name", "tone", "value", "")), "completion/complete brief"));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "modern={0} {3}")
  @MethodSource("targeted")
  void aRequestThatNamesATargetHasExactlyOneSpanAndOneDuration(boolean modern, String method,
      Map<String, ?> params, String spanName) {
    tester(modern).request(method, params);

    assertThat(only(method).getName()).isEqualTo(spanName);
    assertThat(operations(method)).extracting(HistogramPointData::getCount).containsExactly(1L);
  }

  /** The only span of {@code method}, whatever its target. */
  private SpanData only(String method) {
    List<SpanData> named = spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(method) || s.getName().startsWith(method + " ")).toList();
    assertThat(named).as("spans of %s among %s", method, spans.getFinishedSpanItems()).hasSize(1);
    return named.get(0);
  }

  private List<HistogramPointData> operations(String method) {
    MetricData data = metrics.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(McpMetrics.SERVER_OPERATION_DURATION)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + McpMetrics.SERVER_OPERATION_DURATION));
    return data.getHistogramData().getPoints().stream()
        .filter(p -> method.equals(p.getAttributes().get(AttributeKey.stringKey("mcp.method.name"))))
        .map(p -> (HistogramPointData) p).toList();
  }

  /** The id of a JSON-RPC response (the tester's ids are numbers). */
  private static String id(String raw) {
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("^\\{\"jsonrpc\":\"2\\.0\",\"id\":(\\d+),").matcher(raw);
    assertThat(m.find()).as(raw).isTrue();
    return m.group(1);
  }
}
