package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Map;

/**
 * The cost of DLP redaction per call, side by side in one run: the billing sample's pipeline
 * ({@code server.edge().call}) with {@link RedactionBenchmark#POLICY} (every detector and
 * {@code *.email}) and without it, in alternating batches so that drift and other load hit both alike. Measures the
 * calling thread's CPU time (less disturbed by a busy machine than wall time) and wall time, and
 * prints the medians over the rounds and the ratio on/off (goal: at most 1.15).
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.pipeline.RedactionOverhead [rounds] [batch]</pre>
 */
public final class RedactionOverhead {
  private RedactionOverhead() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    InvoiceStore store = InvoiceStore.sample();
    FusionServer off = BillingConnector.builder(store, Exposition.FLAT).build();
    FusionServer on = BillingConnector.builder(store, Exposition.FLAT)
        .redact(RedactionBenchmark.POLICY)
        .build();
    RequestContext context = RequestContext.empty();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    System.out.printf("redaction overhead: %d rounds x %d calls, alternating; load average %s%n",
        rounds, batch, loadAverage());
    for (String tool : new String[] {"billing_get_invoice", "billing_list_invoices"}) {
      Map<String, Object> args0 = tool.endsWith("get_invoice") ? Map.of("id", "INV-0042") : Map.of();
      int n = tool.endsWith("get_invoice") ? batch : Math.max(100, batch / 10);
      if (!off.edge().call(tool, args0, context).equals(on.edge().call(tool, args0, context))) {
        throw new IllegalStateException("redaction changed a reply with nothing to mask: " + tool);
      }
      for (int w = 0; w < 5; w++) { // warm-up, both sides
        run(off, tool, args0, context, n, cpu);
        run(on, tool, args0, context, n, cpu);
      }
      double[] offCpu = new double[rounds];
      double[] onCpu = new double[rounds];
      double[] offWall = new double[rounds];
      double[] onWall = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        boolean onFirst = (r & 1) == 1;
        if (onFirst) {
          long[] a = run(on, tool, args0, context, n, cpu);
          long[] b = run(off, tool, args0, context, n, cpu);
          onCpu[r] = a[0] / (double) n;
          onWall[r] = a[1] / (double) n;
          offCpu[r] = b[0] / (double) n;
          offWall[r] = b[1] / (double) n;
        } else {
          long[] b = run(off, tool, args0, context, n, cpu);
          long[] a = run(on, tool, args0, context, n, cpu);
          onCpu[r] = a[0] / (double) n;
          onWall[r] = a[1] / (double) n;
          offCpu[r] = b[0] / (double) n;
          offWall[r] = b[1] / (double) n;
        }
      }
      double offC = median(offCpu);
      double onC = median(onCpu);
      double offW = median(offWall);
      double onW = median(onWall);
      System.out.printf("%-22s CPU ns/call: off %.0f, on %.0f, ratio %.3f | wall ns/call: off %.0f, on %.0f, ratio %.3f%n",
          tool, offC, onC, onC / offC, offW, onW, onW / offW);
    }
    System.out.printf("load average after: %s%n", loadAverage());
  }

  private static long[] run(FusionServer server, String tool, Map<String, Object> args,
      RequestContext context, int n, ThreadMXBean cpu) {
    long sink = 0;
    long c0 = cpu.getCurrentThreadCpuTime();
    long w0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      sink += server.edge().call(tool, args, context).blocks().size();
    }
    long w1 = System.nanoTime();
    long c1 = cpu.getCurrentThreadCpuTime();
    if (sink == 42) {
      System.out.print("");
    }
    return new long[] {c1 - c0, w1 - w0};
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }

  private static String loadAverage() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}
