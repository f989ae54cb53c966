package dev.mcpfusion.benchmarks.wire;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.time.Duration;
import java.util.Arrays;

/**
 * The guards' cost per call as a client sees it: the billing sample over stateless HTTP
 * (2026-07-28, loopback, one keep-alive connection), with the guards on and off, in one JVM,
 * alternating call by call. {@code limits}: every limit (gate, deadline — which also makes the
 * endpoint answer calls asynchronously — and a byte cap the reply fits); {@code redaction}: every
 * detector and a path, with nothing to mask; {@code both}. Prints the median wall time per
 * {@code billing_get_invoice} call of each and the ratio on/off (goal: at most 1.15).
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.LimitsWireOverhead [rounds] [batch]
 *     [limits|redaction|both]</pre>
 */
public final class LimitsWireOverhead {
  private LimitsWireOverhead() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    String guards = args.length > 2 ? args[2] : "limits";
    InvoiceStore store = InvoiceStore.sample();
    FusionServer off = BillingConnector.builder(store, Exposition.FLAT).build();
    FusionServer.Builder onBuilder = BillingConnector.builder(store, Exposition.FLAT);
    if (!guards.equals("limits") && !guards.equals("redaction") && !guards.equals("both")) {
      throw new IllegalArgumentException("guards: limits, redaction or both, not " + guards);
    }
    if (!guards.equals("redaction")) {
      onBuilder.limits(CallLimits.none().maxConcurrent(64).queue(64)
          .timeout(Duration.ofSeconds(10)).maxEgressBytes(256 * 1024));
    }
    if (!guards.equals("limits")) {
      // Every detector and an any-depth path; the sample holds nothing they match.
      onBuilder.redact(Redaction.paths("*.email").detect(Detector.values()));
    }
    FusionServer on = onBuilder.build();
    HttpOptions options = HttpOptions.port(0).stopOnShutdownSignal(false);
    try (FusionHttpServer offHttp = FusionHttp.serve(off, options);
        FusionHttpServer onHttp = FusionHttp.serve(on, options);
        McpCaller offClient = McpCaller.modernHttp(offHttp.port(), "/mcp");
        McpCaller onClient = McpCaller.modernHttp(onHttp.port(), "/mcp")) {
      String a = strip(offClient.call(1, McpCaller.Tool.GET_INVOICE));
      String b = strip(onClient.call(1, McpCaller.Tool.GET_INVOICE));
      if (!a.equals(b)) {
        throw new IllegalStateException("the limits changed a reply that fits:\n" + a + "\n" + b);
      }
      // Calls alternate one by one, so neither connection idles while the other is measured.
      double[] offNs = new double[rounds];
      double[] onNs = new double[rounds];
      for (int r = -5; r < rounds; r++) { // five rounds of warm-up
        long offTotal = 0;
        long onTotal = 0;
        for (int i = 0; i < batch; i++) {
          long t0 = System.nanoTime();
          offClient.call(i + 2, McpCaller.Tool.GET_INVOICE);
          long t1 = System.nanoTime();
          onClient.call(i + 2, McpCaller.Tool.GET_INVOICE);
          long t2 = System.nanoTime();
          offTotal += t1 - t0;
          onTotal += t2 - t1;
        }
        if (r >= 0) {
          offNs[r] = offTotal / (double) batch;
          onNs[r] = onTotal / (double) batch;
        }
      }
      double offMedian = median(offNs);
      double onMedian = median(onNs);
      System.out.printf("stateless HTTP billing_get_invoice, %s on, %d rounds x %d calls: off %.1f"
          + " us/call, on %.1f us/call, ratio %.3f%n", guards, rounds, batch, offMedian / 1000,
          onMedian / 1000, onMedian / offMedian);
    }
  }

  private static String strip(String reply) {
    return reply.replaceAll("\"io\\.modelcontextprotocol/serverInfo\":\\{[^}]*\\}", "");
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }
}
