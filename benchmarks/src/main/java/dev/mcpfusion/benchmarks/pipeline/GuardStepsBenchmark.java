package dev.mcpfusion.benchmarks.pipeline;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Deadline;
import dev.mcpfusion.core.guard.Deadlines;
import dev.mcpfusion.core.guard.EgressCap;
import dev.mcpfusion.core.redact.EgressRedaction;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.presenter.InvoiceView_Presenter;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
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
 * The guard steps alone, on the reply the billing sample's {@code get_invoice} and
 * {@code list_invoices} build: redaction with every detector and a path pattern (the whole walk,
 * and the check that vouches for a clean answer without one, as the pipeline runs it), the byte cap's
 * check of a reply far below it, the concurrency gate entered and left, and a deadline started
 * and finished. Read beside
 * {@link RedactionBenchmark} and {@link LimitsBenchmark}: what a step costs by itself, against what
 * switching it on costs the whole call (which also moves the JIT's inlining decisions).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
public class GuardStepsBenchmark {
  private Redactor redactor;
  private References refs;
  private Reply single;
  private Reply list;
  private Deadlines deadlines;
  private ConcurrencyGate gate;

  @Setup
  public void setUp() {
    FusionServer plain = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT).build();
    single = plain.edge().call("billing_get_invoice", Map.of("id", "INV-0042"), RequestContext.empty());
    list = plain.edge().call("billing_list_invoices", Map.of(), RequestContext.empty());
    // As the server compiles it for the action: for InvoiceView, whose schema no path can match.
    redactor = Redactions.compile(RedactionBenchmark.POLICY)
        .forView(InvoiceView_Presenter.INSTANCE.outputSchemaJson(),
            InvoiceView_Presenter.INSTANCE.staticRules());
    refs = ref -> ref.replace('.', '_');
    deadlines = new Deadlines();
    gate = new ConcurrencyGate(64, 64);
    if (redactSingle() != single || capSingle() != single || capList() != list
        || !EgressRedaction.knownClean(redactor, single, ResultShape.SINGLE)) {
      throw new IllegalStateException("a step changed a reply it should have left alone");
    }
  }

  @Benchmark
  public Reply redactSingle() {
    return EgressRedaction.success(redactor, single, ResultShape.SINGLE, refs, new Tally());
  }

  @Benchmark
  public Reply redactList() {
    return EgressRedaction.success(redactor, list, ResultShape.PAGE, refs, new Tally());
  }

  /** What the pipeline does first: vouch for the reply without a walk, or else walk it. */
  @Benchmark
  public Reply vouchOrRedactSingle() {
    return EgressRedaction.knownClean(redactor, single, ResultShape.SINGLE) ? single
        : EgressRedaction.success(redactor, single, ResultShape.SINGLE, refs, new Tally());
  }

  @Benchmark
  public Reply vouchOrRedactList() {
    return EgressRedaction.knownClean(redactor, list, ResultShape.PAGE) ? list
        : EgressRedaction.success(redactor, list, ResultShape.PAGE, refs, new Tally());
  }

  @Benchmark
  public Reply capSingle() {
    return EgressCap.fit(single, LimitsBenchmark.ALL.maxEgressBytes(), "billing", "get_invoice",
        UnaryOperator.identity());
  }

  @Benchmark
  public Reply capList() {
    return EgressCap.fit(list, LimitsBenchmark.ALL.maxEgressBytes(), "billing", "list_invoices",
        UnaryOperator.identity());
  }

  @Benchmark
  public boolean gate() throws InterruptedException {
    boolean entered = gate.enter();
    gate.leave();
    return entered;
  }

  @Benchmark
  public boolean deadline() {
    Deadline d = deadlines.start(10_000, null);
    return d.finish();
  }
}
