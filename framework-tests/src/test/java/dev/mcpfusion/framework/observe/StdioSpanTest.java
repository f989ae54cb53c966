package dev.mcpfusion.framework.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.trace.McpMetrics;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.otel.OtelFusionMeter;
import dev.mcpfusion.otel.OtelFusionTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Spans end to end over stdio: the server's {@link StdioTransport} reading and writing lines, as a
 * connector runs under an MCP client, exports the SERVER span of a call — with its parent from
 * {@code _meta}, {@code network.transport=pipe} and its session — and that of a call refused
 * before it names a tool, in both eras, with their durations.
 */
class StdioSpanTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT = "00f067aa0ba902b7";
  private static final Map<String, Object> META =
      Map.of("traceparent", "00-" + TRACE + "-" + PARENT + "-01");

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  private OpenTelemetrySdk otel;
  private FusionServer server;
  private OutputStream toServer;
  private BufferedReader fromServer;
  private Thread serving;
  private int ids;

  @BeforeEach
  void start() throws IOException {
    otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
        .build();
    server = FusionServer.builder("desk", "1.0.0")
        .register(new DeskTools())
        .tracer(OtelFusionTracer.of(otel))
        .meter(OtelFusionMeter.of(otel))
        .build();
    Pipe input = Pipe.open();
    Pipe output = Pipe.open();
    toServer = Channels.newOutputStream(input.sink());
    OutputStream serverOut = Channels.newOutputStream(output.sink());
    fromServer = new BufferedReader(new InputStreamReader(
        Channels.newInputStream(output.source()), StandardCharsets.UTF_8));
    StdioTransport transport = new StdioTransport(Channels.newInputStream(input.source()),
        serverOut, server.edge(), Duration.ofSeconds(10));
    serving = new Thread(() -> {
      try {
        transport.serve();
        serverOut.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, "stdio-span-test");
    serving.setDaemon(true);
    serving.start();
  }

  @AfterEach
  void stop() throws Exception {
    toServer.close();
    serving.join(10_000);
    server.edge().close();
    otel.close();
  }

  @Test
  void aCallOverStdioExportsItsServerSpanWithItsParentTheSessionAndThePipeTransport()
      throws Exception {
    initialize();

    Map<?, ?> reply = request(JsonRpc.TOOLS_CALL,
        Map.of("name", "desk_echo", "arguments", Map.of("text", "hi"), "_meta", META));

    assertThat(reply.get("result")).as("%s", reply).isInstanceOf(Map.class);
    SpanData span = awaitSpan("tools/call desk_echo");
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(span.getTraceId()).isEqualTo(TRACE);
    assertThat(span.getParentSpanId()).isEqualTo(PARENT);
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.OK);
    assertThat(attr(span, "network.transport")).isEqualTo("pipe");
    assertThat(attr(span, "mcp.session.id")).isNotBlank();
    assertThat(attr(span, "mcp.protocol.version")).isEqualTo(ProtocolVersions.LATEST_CLASSIC);
    assertThat(attr(span, "jsonrpc.request.id")).isEqualTo(String.valueOf(ids));
    assertThat(attr(span, "gen_ai.tool.name")).isEqualTo("desk_echo");
    assertThat(awaitSpan("initialize").getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(operationTransports("tools/call")).containsExactly("pipe");
  }

  @Test
  void aCallRefusedBeforeItNamesAToolOverStdioHasItsSpanInBothEras() throws Exception {
    initialize();

    Map<?, ?> classic = request(JsonRpc.TOOLS_CALL, Map.of("arguments", Map.of()));
    Map<String, Object> modernMeta = new LinkedHashMap<>();
    modernMeta.put(Meta.PROTOCOL_VERSION, ProtocolVersions.MODERN);
    Map<?, ?> modern = request(JsonRpc.TOOLS_CALL,
        Map.of("arguments", Map.of(), "_meta", modernMeta));

    assertThat(classic.get("error")).as("%s", classic).isInstanceOf(Map.class);
    assertThat(modern.get("error")).as("%s", modern).isInstanceOf(Map.class);
    List<SpanData> refused = awaitSpans("tools/call", 2);
    assertThat(refused).extracting(s -> attr(s, "mcp.protocol.version"))
        .containsExactlyInAnyOrder(ProtocolVersions.LATEST_CLASSIC, ProtocolVersions.MODERN);
    for (SpanData span : refused) {
      assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(attr(span, "error.type")).isEqualTo("-32602");
      assertThat(attr(span, "rpc.response.status_code")).isEqualTo("-32602");
      assertThat(attr(span, "network.transport")).isEqualTo("pipe");
    }
    assertThat(operationTransports("tools/call")).containsOnly("pipe");
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private void initialize() throws IOException {
    Map<?, ?> init = request(JsonRpc.INITIALIZE, Map.of("protocolVersion",
        ProtocolVersions.LATEST_CLASSIC, "capabilities", Map.of(),
        "clientInfo", Map.of("name", "stdio-span-test", "version", "1")));
    assertThat(init.get("result")).as("%s", init).isInstanceOf(Map.class);
    send(Map.of("jsonrpc", "2.0", "method", JsonRpc.INITIALIZED));
  }

  private Map<?, ?> request(String method, Map<String, ?> params) throws IOException {
    int id = ++ids;
    send(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
    String line = fromServer.readLine();
    assertThat(line).as("a reply to %s", method).isNotNull();
    return (Map<?, ?>) Json.parse(line);
  }

  private void send(Map<String, ?> message) throws IOException {
    toServer.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
  }

  /** The span named {@code name}: a span ends just after its reply is written, so wait (bounded). */
  private SpanData awaitSpan(String name) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (true) {
      List<SpanData> named = spans.getFinishedSpanItems().stream()
          .filter(s -> s.getName().equals(name)).toList();
      if (!named.isEmpty() || System.nanoTime() > end) {
        assertThat(named).as("spans named %s", name).hasSize(1);
        return named.get(0);
      }
      Thread.sleep(10);
    }
  }

  private List<SpanData> awaitSpans(String name, int count) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (true) {
      List<SpanData> named = spans.getFinishedSpanItems().stream()
          .filter(s -> s.getName().equals(name)).toList();
      if (named.size() >= count || System.nanoTime() > end) {
        assertThat(named).as("spans named %s", name).hasSize(count);
        return named;
      }
      Thread.sleep(10);
    }
  }

  private List<String> operationTransports(String method) {
    return metrics.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(McpMetrics.SERVER_OPERATION_DURATION))
        .flatMap(m -> m.getHistogramData().getPoints().stream())
        .map(PointData::getAttributes)
        .filter(a -> method.equals(a.get(AttributeKey.stringKey("mcp.method.name"))))
        .map(a -> a.get(AttributeKey.stringKey("network.transport")))
        .toList();
  }

  private static String attr(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }
}
