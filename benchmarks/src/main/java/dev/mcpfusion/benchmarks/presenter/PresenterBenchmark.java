package dev.mcpfusion.benchmarks.presenter;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.presenter.InvoiceView;
import dev.mcpfusion.samples.billing.presenter.InvoiceView_Presenter;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
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
import tools.jackson.databind.json.JsonMapper;

/**
 * Benchmark 2: presenting one {@code Invoice} as {@code InvoiceView} JSON with the generated
 * presenter ({@code fromModel}, then the generated direct writer {@code toJson}/{@code appendJson},
 * which the pipeline uses for the data block) against Jackson 3's reflective serialization of an
 * equivalent DTO record built from the invoice. Ratio = {@code generatedPresenter} /
 * {@code jacksonDto} throughput; every benchmark produces the identical string (checked at setup).
 * References, not goals: {@code directWriter} (a writer for this view by hand) and
 * {@code generatedTree} (the tree path, {@code Json.write(toTree(view))}, as before the direct
 * writer; the pipeline still builds the tree for {@code structuredContent}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(2)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class PresenterBenchmark {
  private Invoice invoice;
  private JsonMapper jackson;

  @Setup
  public void setUp() {
    invoice = InvoiceStore.sample().find(new Tenant(Tenant.SAMPLE_TENANT), "INV-0042")
        .orElseThrow();
    jackson = JsonMapper.builder().build();
    String generated = generatedPresenter();
    String reflective = jacksonDto();
    String direct = directWriter();
    String tree = generatedTree();
    if (!generated.equals(reflective) || !generated.equals(direct) || !generated.equals(tree)) {
      throw new IllegalStateException("outputs differ:\n" + generated + "\n" + reflective + "\n"
          + direct + "\n" + tree);
    }
  }

  /**
   * Not part of the goal: a direct writer (constant keys, no intermediate tree) written by hand for
   * {@code InvoiceView}, the reference the generated one is measured against.
   */
  @Benchmark
  public String directWriter() {
    InvoiceView view = InvoiceView_Presenter.INSTANCE.fromModel(invoice);
    StringBuilder out = new StringBuilder(64).append("{\"id\":");
    quote(view.id(), out);
    return out.append(",\"totalCents\":").append(view.totalCents())
        .append(",\"status\":\"").append(view.status().name()).append("\"}").toString();
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }

  /** The subject: the generated presenter's view and its generated direct writer. */
  @Benchmark
  public String generatedPresenter() {
    InvoiceView_Presenter presenter = InvoiceView_Presenter.INSTANCE;
    return presenter.toJson(presenter.fromModel(invoice));
  }

  /** Not part of the goal: the generated tree walked by {@link Json#write}. */
  @Benchmark
  public String generatedTree() {
    InvoiceView_Presenter presenter = InvoiceView_Presenter.INSTANCE;
    return Json.write(presenter.toTree(presenter.fromModel(invoice)));
  }

  @Benchmark
  public String jacksonDto() {
    return jackson.writeValueAsString(InvoiceDto.of(invoice));
  }
}
