package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Map;

/**
 * Two servers of the billing sample called in alternating batches in one JVM ({@code
 * server.edge().call}), so that drift and other load hit both alike: prints, per tool, the median
 * CPU time of the calling thread (less disturbed by a busy machine than wall time) and wall time
 * per call, and the ratio on/off. Shared by {@link LimitsOverhead} and {@link RedactionOverhead}.
 */
final class SideBySide {
  private SideBySide() {}

  /**
   * Runs both tools of the sample on {@code off} and {@code on}; fails with {@code changed} when the
   * two answer differently (the switched-on feature must not change a reply it does not touch).
   */
  static void compare(String title, FusionServer off, FusionServer on, int rounds, int batch,
      String changed) {
    RequestContext context = RequestContext.empty();
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    System.out.printf("%s: %d rounds x %d calls, alternating; load average %s%n",
        title, rounds, batch, loadAverage());
    for (String tool : new String[] {"billing_get_invoice", "billing_list_invoices"}) {
      Map<String, Object> args = tool.endsWith("get_invoice") ? Map.of("id", "INV-0042") : Map.of();
      int n = tool.endsWith("get_invoice") ? batch : Math.max(100, batch / 10);
      if (!off.edge().call(tool, args, context).equals(on.edge().call(tool, args, context))) {
        throw new IllegalStateException(changed + ": " + tool);
      }
      for (int w = 0; w < 5; w++) { // warm-up, both sides
        run(off, tool, args, context, n, cpu);
        run(on, tool, args, context, n, cpu);
      }
      double[] offCpu = new double[rounds];
      double[] onCpu = new double[rounds];
      double[] offWall = new double[rounds];
      double[] onWall = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        long[] a;
        long[] b;
        if ((r & 1) == 1) { // on first in odd rounds, off first in even ones
          a = run(on, tool, args, context, n, cpu);
          b = run(off, tool, args, context, n, cpu);
        } else {
          b = run(off, tool, args, context, n, cpu);
          a = run(on, tool, args, context, n, cpu);
        }
        onCpu[r] = a[0] / (double) n;
        onWall[r] = a[1] / (double) n;
        offCpu[r] = b[0] / (double) n;
        offWall[r] = b[1] / (double) n;
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

  /** {@code n} calls of {@code tool}: the calling thread's CPU nanoseconds, then the wall nanoseconds. */
  static long[] run(FusionServer server, String tool, Map<String, Object> args,
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

  /** The {@code q} quantile of {@code values}, interpolated between the two nearest. */
  static double quantile(double[] values, double q) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double at = q * (sorted.length - 1);
    int lo = (int) Math.floor(at);
    int hi = (int) Math.ceil(at);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
  }

  static String loadAverage() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}
