package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.server.Results;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.spec.McpSchema;
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
 * The price of the guards per call: the billing sample's pipeline without limits and with every
 * limit on (a concurrency gate with a queue, a 10 s deadline and a 256 KiB egress cap), none of
 * which is hit, side by side in one run and in forked JVMs (the single-item call is under a
 * microsecond, where one JVM's JIT decisions swing a hand-rolled loop by several times).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
// The whole call needs about six seconds of calls here before the JIT has compiled it for good.
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 5, time = 1)
public class LimitsBenchmark {
  static final CallLimits ALL = CallLimits.none().maxConcurrent(64).queue(64)
      .timeout(Duration.ofSeconds(10)).maxEgressBytes(256 * 1024);

  private FusionServer plain;
  private FusionServer limited;
  private RequestContext context;
  private Map<String, Object> getArgs;
  private Map<String, Object> listArgs;

  @Setup
  public void setUp() {
    InvoiceStore store = InvoiceStore.sample();
    plain = BillingConnector.builder(store, Exposition.FLAT).build();
    limited = BillingConnector.builder(store, Exposition.FLAT).limits(ALL).build();
    context = RequestContext.empty();
    getArgs = Map.of("id", "INV-0042");
    listArgs = Map.of();
    // No limit is reached: both sides must answer exactly the same result.
    SameAnswer.check(plainGetInvoice(), limitedGetInvoice());
    SameAnswer.check(plainListInvoices(), limitedListInvoices());
  }

  @Benchmark
  public McpSchema.CallToolResult plainGetInvoice() {
    return Results.toMcp(plain.edge().call("billing_get_invoice", getArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult limitedGetInvoice() {
    return Results.toMcp(limited.edge().call("billing_get_invoice", getArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult plainListInvoices() {
    return Results.toMcp(plain.edge().call("billing_list_invoices", listArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult limitedListInvoices() {
    return Results.toMcp(limited.edge().call("billing_list_invoices", listArgs, context));
  }
}
