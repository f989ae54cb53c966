package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.gateway.lab.LabTools;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.otel.OtelFusionTracer;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One trace across the hops: the caller's context reaches the gateway, the gateway's client span
 * is a child of its server span, and the upstream's server span a child of that client span.
 * Gateway and upstream run in one JVM and export to one in-memory exporter.
 */
class TraceAcrossHopsTest {
  private static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER_SPAN = "00f067aa0ba902b7";

  @Test
  void theUpstreamsSpanIsAChildOfTheGatewaysInTheCallersTrace() {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
    FusionTracer tracer = OtelFusionTracer.of(otel);
    FusionHttpServer lab = FusionHttp.serve(FusionServer.builder("lab", "1.0.0")
        .register(new LabTools()).tracer(tracer).build(), HttpOptions.port(0));
    try (Gateway gateway = Gateway.builder().http("lab", lab.endpoint().toString()).tracer(tracer)
        .build();
        FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("gw", "1")))) {
      ToolResult result = tester.callTool("lab_lab_traceparent", Map.of(),
          Map.of("traceparent", "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01"));
      assertThat(result.isSuccess()).as(result.blocks().toString()).isTrue();

      List<SpanData> spans = exporter.getFinishedSpanItems();
      SpanData gatewayServer = only(spans, "tools/call lab_lab_traceparent", SpanKind.SERVER);
      SpanData gatewayClient = only(spans, "tools/call lab_traceparent", SpanKind.CLIENT);
      SpanData upstreamServer = spans.stream()
          .filter(s -> s.getName().equals("tools/call lab_traceparent") && s.getKind() == SpanKind.SERVER)
          .findFirst().orElseThrow(() -> new AssertionError("no upstream span in " + spans));

      assertThat(List.of(gatewayServer, gatewayClient, upstreamServer))
          .allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(CALLER_TRACE));
      assertThat(gatewayServer.getParentSpanId()).isEqualTo(CALLER_SPAN);
      assertThat(gatewayClient.getParentSpanId()).isEqualTo(gatewayServer.getSpanId());
      assertThat(upstreamServer.getParentSpanId()).isEqualTo(gatewayClient.getSpanId());
      assertThat(gatewayClient.getAttributes().asMap().toString()).contains("mcpfusion.upstream=lab");
      // What the upstream's handler saw is the gateway's client span.
      assertThat(result.dataText()).isEqualTo("00-" + CALLER_TRACE + "-" + gatewayClient.getSpanId() + "-01");
    } finally {
      lab.close();
    }
  }

  @Test
  void withoutATracerTheGatewayPassesTheCallersContextOn() {
    FusionHttpServer lab = FusionHttp.serve(FusionServer.builder("lab", "1.0.0")
        .register(new LabTools()).build(), HttpOptions.port(0));
    try (Gateway gateway = Gateway.builder().http("lab", lab.endpoint().toString()).build();
        FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("gw", "1")))) {
      String traceparent = "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01";
      ToolResult result = tester.callTool("lab_lab_traceparent", Map.of(),
          Map.of("traceparent", traceparent));
      assertThat(result.dataText()).isEqualTo(traceparent);
    } finally {
      lab.close();
    }
  }

  private static SpanData only(List<SpanData> spans, String name, SpanKind kind) {
    List<SpanData> found = spans.stream()
        .filter(s -> s.getName().equals(name) && s.getKind() == kind).toList();
    assertThat(found).as("%s %s spans in %s", kind, name, spans).hasSize(1);
    return found.get(0);
  }
}
