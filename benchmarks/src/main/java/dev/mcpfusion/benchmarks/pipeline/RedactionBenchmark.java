package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
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
 * The price of DLP redaction per call: the billing sample's pipeline (as {@link PipelineBenchmark}
 * runs it) without redaction and with a server-wide policy that runs every detector over every
 * string and a path pattern ({@code *.email}) checked at every key, side by side in one run. The
 * data holds nothing to mask, so both sides send the same bytes: the difference is the scan, the
 * masked copy of the tree and the data block written again from it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
// The whole call needs about six seconds of calls here before the JIT has compiled it for good.
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 5, time = 1)
public class RedactionBenchmark {
  static final Redaction POLICY = Redaction.paths("*.email").detect(Detector.values());

  private FusionServer plain;
  private FusionServer redacted;
  private RequestContext context;
  private Map<String, Object> getArgs;
  private Map<String, Object> listArgs;

  @Setup
  public void setUp() {
    InvoiceStore store = InvoiceStore.sample();
    plain = BillingConnector.builder(store, Exposition.FLAT).build();
    redacted = BillingConnector.builder(store, Exposition.FLAT).redact(POLICY).build();
    context = RequestContext.empty();
    getArgs = Map.of("id", "INV-0042");
    listArgs = Map.of();
    // Nothing in the sample matches: both sides must answer exactly the same result.
    SameAnswer.check(plainGetInvoice(), redactedGetInvoice());
    SameAnswer.check(plainListInvoices(), redactedListInvoices());
  }

  @Benchmark
  public McpSchema.CallToolResult plainGetInvoice() {
    return Results.toMcp(plain.edge().call("billing_get_invoice", getArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult redactedGetInvoice() {
    return Results.toMcp(redacted.edge().call("billing_get_invoice", getArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult plainListInvoices() {
    return Results.toMcp(plain.edge().call("billing_list_invoices", listArgs, context));
  }

  @Benchmark
  public McpSchema.CallToolResult redactedListInvoices() {
    return Results.toMcp(redacted.edge().call("billing_list_invoices", listArgs, context));
  }
}
