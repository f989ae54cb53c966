package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.presenter.Reply;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of the guards: one {@code tools/call} through the whole pipeline of the billing sample
 * ({@code FusionServer.edge().call}) with every limit switched on — a concurrency gate, a deadline
 * and a byte cap that the reply fits — against the same server without limits, side by side in one
 * run. Ratio = {@code limited*} / {@code unlimited*}; the goal is at most 1.15.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class LimitsBenchmark {
  private FusionServer unlimited;
  private FusionServer limited;
  private RequestContext context;
  private Map<String, Object> getArgs;
  private Map<String, Object> listArgs;

  @Setup
  public void setUp() {
    InvoiceStore store = InvoiceStore.sample();
    unlimited = BillingConnector.builder(store, Exposition.FLAT).build();
    limited = BillingConnector.builder(store, Exposition.FLAT)
        .limits(CallLimits.none().maxConcurrent(64).queue(64).timeout(Duration.ofSeconds(10))
            .maxEgressBytes(256 * 1024))
        .build();
    context = RequestContext.empty();
    getArgs = Map.of("id", "INV-0042");
    listArgs = Map.of();
    // Both do the same useful work: the limits change nothing in a reply that fits.
    if (!unlimitedGetInvoice().equals(limitedGetInvoice())
        || !unlimitedListInvoices().equals(limitedListInvoices())) {
      throw new IllegalStateException("the limits changed a reply that fits");
    }
  }

  @Benchmark
  public Reply unlimitedGetInvoice() {
    return unlimited.edge().call("billing_get_invoice", getArgs, context);
  }

  @Benchmark
  public Reply limitedGetInvoice() {
    return limited.edge().call("billing_get_invoice", getArgs, context);
  }

  @Benchmark
  public Reply unlimitedListInvoices() {
    return unlimited.edge().call("billing_list_invoices", listArgs, context);
  }

  @Benchmark
  public Reply limitedListInvoices() {
    return limited.edge().call("billing_list_invoices", listArgs, context);
  }
}
