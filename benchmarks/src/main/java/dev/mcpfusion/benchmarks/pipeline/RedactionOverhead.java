package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;

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
    SideBySide.compare("redaction overhead", off, on, rounds, batch,
        "redaction changed a reply with nothing to mask");
  }
}
