package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The guards' price per call, every side in one JVM, taking turns batch by batch: the billing
 * sample plain, with redaction ({@link RedactionBenchmark#POLICY}: every detector and a path, nothing
 * to mask), with every limit ({@link LimitsBenchmark#ALL}, none reached), and with both.
 *
 * <p>Why one JVM and short turns: on this kind of machine a sub-microsecond call moves by tens of
 * per cent between JVMs (how the JIT split the call into compiled methods) and over tens of seconds
 * (the host), so sides measured in separate forks, or minutes apart, differ by more than the guards
 * cost. Here all four run the same compiled code, and each round gives every side a batch of a few
 * milliseconds in rotating order, so a drift hits all four within one round. Each side's figure per
 * round is the calling thread's CPU time per call; the summary is, per side, the median over rounds
 * of its ratio to plain in the same round (and the median CPU time per call).
 *
 * <p>The warm-up runs every side, in turns, for {@code warmup} seconds: the whole call needs several
 * seconds of calls before the JIT has compiled it for good.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar \
 *     dev.mcpfusion.benchmarks.pipeline.GuardsOverhead [rounds] [batch] [warmup seconds] [GetInvoice|ListInvoices]</pre>
 */
public final class GuardsOverhead {
  private GuardsOverhead() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    boolean list = args.length > 3 && args[3].equals("ListInvoices");
    String tool = list ? "billing_list_invoices" : "billing_get_invoice";
    Map<String, Object> arguments = list ? Map.of() : Map.of("id", "INV-0042");
    int n = list ? Math.max(20, batch / 200) : batch;

    InvoiceStore store = InvoiceStore.sample();
    Map<String, FusionServer> sides = new LinkedHashMap<>();
    sides.put("plain", BillingConnector.builder(store, Exposition.FLAT).build());
    sides.put("redacted", BillingConnector.builder(store, Exposition.FLAT)
        .redact(RedactionBenchmark.POLICY).build());
    sides.put("limited", BillingConnector.builder(store, Exposition.FLAT)
        .limits(LimitsBenchmark.ALL).build());
    sides.put("both", BillingConnector.builder(store, Exposition.FLAT)
        .limits(LimitsBenchmark.ALL).redact(RedactionBenchmark.POLICY).build());
    RequestContext context = RequestContext.empty();
    Object expected = sides.get("plain").edge().call(tool, arguments, context);
    sides.forEach((side, server) -> {
      if (!server.edge().call(tool, arguments, context).equals(expected)) {
        throw new IllegalStateException(side + " answers " + tool + " differently from plain");
      }
    });
    List<String> names = List.copyOf(sides.keySet());
    FusionServer[] servers = sides.values().toArray(new FusionServer[0]);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    System.out.printf("%s: %d s warm-up, %d rounds x %d calls per side, turns rotating; load average %s%n",
        tool, warmup, rounds, n, SideBySide.loadAverage());

    long warmEnd = System.nanoTime() + warmup * 1_000_000_000L;
    while (System.nanoTime() < warmEnd) {
      for (FusionServer server : servers) {
        SideBySide.run(server, tool, arguments, context, n, cpu);
      }
    }
    double[][] perCall = new double[servers.length][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < servers.length; k++) {
        int s = (k + r) % servers.length;
        perCall[s][r] = SideBySide.run(servers[s], tool, arguments, context, n, cpu)[0] / (double) n;
      }
    }
    System.out.printf("%-9s %12s %14s %12s %12s%n", "side", "CPU ns/call", "ratio (median)",
        "ratio p25", "ratio p75");
    for (int s = 0; s < servers.length; s++) {
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = perCall[s][r] / perCall[0][r];
      }
      System.out.printf("%-9s %12.1f %13.3fx %11.3fx %11.3fx%n", names.get(s),
          SideBySide.quantile(perCall[s], 0.5), SideBySide.quantile(ratio, 0.5),
          SideBySide.quantile(ratio, 0.25), SideBySide.quantile(ratio, 0.75));
    }
    System.out.printf("load average after: %s%n", SideBySide.loadAverage());
    // One line for GuardsOverheadAcrossJvms, which runs this class in several JVMs.
    StringBuilder medians = new StringBuilder(RATIOS);
    for (int s = 0; s < servers.length; s++) {
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = perCall[s][r] / perCall[0][r];
      }
      medians.append(' ').append(names.get(s)).append('=')
          .append(String.format(java.util.Locale.ROOT, "%.4f", SideBySide.quantile(ratio, 0.5)));
    }
    System.out.println(medians);
  }

  /** Starts the machine-readable line: each side's median ratio to plain, as {@code side=ratio}. */
  static final String RATIOS = "ratios:";
}
