package dev.mcpfusion.benchmarks.observe;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Sink;
import dev.mcpfusion.otel.OtelFusionTracer;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/**
 * The whole {@code tools/call} — JSON-RPC bytes in, through the edge's dispatch, the pipeline and
 * the reply's bytes out — of the billing sample's {@code billing_get_invoice}, in one JVM, for one
 * side:
 *
 * <ul>
 *   <li>{@code off}: no tracer, no meter (the default server);
 *   <li>{@code observed}: {@code OtelFusionTracer} over the OpenTelemetry SDK (every span sampled
 *       and handed to an exporter that drops it) and {@code MicrometerFusionMeter} over Micrometer's
 *       {@code SimpleMeterRegistry}.
 * </ul>
 *
 * <p>Uses only API that predates the metrics (the meter is set by reflection), so the same source
 * compiles against the build before them: {@code benchmarks/observability.sh} runs {@code off} of
 * both builds and {@code observed} of this one in alternating JVMs. Prints one line
 * {@code RESULT side=... median_ns=... p10_ns=... p90_ns=...} (the spread is over rounds).
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.observe.ObservabilityOverhead off|observed
 *     [rounds=20] [batch=20000] [warmup seconds=10]</pre>
 */
public final class ObservabilityOverhead {
  private ObservabilityOverhead() {}

  public static void main(String[] args) throws Exception {
    String side = args.length > 0 ? args[0] : "off";
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    int warmupSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    FusionServer.Builder builder = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT);
    OpenTelemetrySdk otel = null;
    switch (side) {
      case "off" -> { }
      case "observed" -> {
        otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(new Dropping())).build()).build();
        builder.tracer(OtelFusionTracer.of(otel));
        Class<?> meterType = Class.forName("dev.mcpfusion.core.trace.FusionMeter");
        Object registry = Class.forName("io.micrometer.core.instrument.simple.SimpleMeterRegistry")
            .getConstructor().newInstance();
        Object meter = Class.forName("dev.mcpfusion.micrometer.MicrometerFusionMeter")
            .getMethod("of", Class.forName("io.micrometer.core.instrument.MeterRegistry"))
            .invoke(null, registry);
        builder.getClass().getMethod("meter", meterType).invoke(builder, meter);
      }
      default -> throw new IllegalArgumentException("side must be off or observed, was " + side);
    }
    FusionServer server = builder.build();
    Edge edge = server.edge();
    int[] replied = new int[1];
    Sink sink = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        if (errorCode != 0) {
          throw new IllegalStateException("error reply: " + new String(json, StandardCharsets.UTF_8));
        }
        replied[0] = json.length;
      }

      @Override
      public void push(byte[] json) {}
    };
    EdgeSession session = edge.openSession(sink);
    send(edge, session, sink, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
        + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"b\","
        + "\"version\":\"1\"}}}");
    send(edge, session, sink, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    byte[] call = ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
        + "\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0042\"}}}").getBytes(StandardCharsets.UTF_8);
    long warmupEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
    while (System.nanoTime() < warmupEnd) {
      for (int i = 0; i < 1_000; i++) {
        edge.dispatch(edge.read(call), Inbound.inProcess(), session, sink);
      }
    }
    double[] perCall = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long start = System.nanoTime();
      for (int i = 0; i < batch; i++) {
        edge.dispatch(edge.read(call), Inbound.inProcess(), session, sink);
      }
      perCall[r] = (System.nanoTime() - start) / (double) batch;
    }
    if (replied[0] == 0) {
      throw new IllegalStateException("no reply was written");
    }
    session.close();
    if (otel != null) {
      otel.close();
    }
    Arrays.sort(perCall);
    System.out.printf(Locale.ROOT, "RESULT side=%s median_ns=%.0f p10_ns=%.0f p90_ns=%.0f"
            + " rounds=%d batch=%d warmup_s=%d reply_bytes=%d%n", side, perCall[rounds / 2],
        perCall[rounds / 10], perCall[rounds * 9 / 10], rounds, batch, warmupSeconds, replied[0]);
  }

  private static void send(Edge edge, EdgeSession session, Sink sink, String json) {
    edge.dispatch(edge.read(json), Inbound.inProcess(), session, sink);
  }

  /** Takes every span and keeps none: the SDK's whole span path runs, and no I/O. */
  private static final class Dropping implements SpanExporter {
    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
