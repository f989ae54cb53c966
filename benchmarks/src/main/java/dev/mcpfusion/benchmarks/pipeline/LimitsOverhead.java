package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.time.Duration;

/**
 * The guards' cost per call, side by side in one run: the billing sample's pipeline
 * ({@code server.edge().call}) with every limit on (gate, deadline, a byte cap the reply fits)
 * and off, in alternating batches so that drift and other load hit both alike. Measures the
 * calling thread's CPU time (less disturbed by a busy machine than wall time) and wall time, and
 * prints the medians over the rounds and the ratio on/off (goal: at most 1.15).
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.pipeline.LimitsOverhead [rounds] [batch] [all|gate|deadline|cap]</pre>
 */
public final class LimitsOverhead {
  private LimitsOverhead() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    String only = args.length > 2 ? args[2] : "all";
    InvoiceStore store = InvoiceStore.sample();
    FusionServer off = BillingConnector.builder(store, Exposition.FLAT).build();
    FusionServer on = BillingConnector.builder(store, Exposition.FLAT)
        .limits(switch (only) {
          case "gate" -> CallLimits.none().maxConcurrent(64).queue(64);
          case "deadline" -> CallLimits.none().timeout(Duration.ofSeconds(10));
          case "cap" -> CallLimits.none().maxEgressBytes(256 * 1024);
          default -> CallLimits.none().maxConcurrent(64).queue(64).timeout(Duration.ofSeconds(10))
              .maxEgressBytes(256 * 1024);
        })
        .build();
    SideBySide.compare("limits overhead (" + only + ")", off, on, rounds, batch,
        "the limits changed a reply that fits");
  }
}
