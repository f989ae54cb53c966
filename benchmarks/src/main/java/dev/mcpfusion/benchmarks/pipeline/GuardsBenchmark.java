package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.server.Results;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.spec.McpSchema;
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
 * Every guard on at once: {@link LimitsBenchmark#ALL} (none reached) and
 * {@link RedactionBenchmark#POLICY} (nothing to mask) on the billing sample. Its plain side is
 * {@link RedactionBenchmark}'s (the same server); {@link GuardsAlternating} runs them in turn.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
// The whole call needs about six seconds of calls here before the JIT has compiled it for good.
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 5, time = 1)
public class GuardsBenchmark {
  private FusionServer guarded;
  private RequestContext context;
  private Map<String, Object> getArgs;
  private Map<String, Object> listArgs;

  @Setup
  public void setUp() {
    InvoiceStore store = InvoiceStore.sample();
    guarded = BillingConnector.builder(store, Exposition.FLAT)
        .limits(LimitsBenchmark.ALL).redact(RedactionBenchmark.POLICY).build();
    context = RequestContext.empty();
    getArgs = Map.of("id", "INV-0042");
    listArgs = Map.of();
    FusionServer plain = BillingConnector.builder(store, Exposition.FLAT).build();
    // No limit is reached and nothing is masked: the answers are the plain pipeline's.
    SameAnswer.check(Results.toMcp(plain.edge().call("billing_get_invoice", getArgs, context)),
        bothGetInvoice());
    SameAnswer.check(Results.toMcp(plain.edge().call("billing_list_invoices", listArgs, context)),
        bothListInvoices());
  }

  @Benchmark
  public McpSchema.CallToolResult bothGetInvoice() {
    return Results.toMcp(guarded.edge().call("billing_get_invoice", getArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult bothListInvoices() {
    return Results.toMcp(guarded.edge().call("billing_list_invoices", listArgs, context));
  }
}
