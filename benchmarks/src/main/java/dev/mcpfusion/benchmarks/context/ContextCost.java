package dev.mcpfusion.benchmarks.context;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Function;

/**
 * Benchmark 6, no JMH: the size of the {@code tools/list} result (the JSON the server sends as
 * {@code result}, written by the server's own mapper) for the billing sample and the synthetic
 * 30-action {@link CrmTools}, FLAT against GROUPED. Tokens are an estimate: characters / 4.
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.context.ContextCost [--json]</pre>
 * ({@code --json} also prints each tools/list payload.)
 */
public final class ContextCost {
  private ContextCost() {}

  /** One measured tools/list payload. */
  record Size(String connector, Exposition exposition, int tools, int bytes, int chars, String json) {
    long estimatedTokens() {
      return Math.round(chars / 4.0);
    }
  }

  public static void main(String[] args) throws IOException {
    boolean printJson = args.length > 0 && args[0].equals("--json");
    Function<Exposition, FusionServer> billing =
        e -> BillingConnector.builder(InvoiceStore.sample(), e).build();
    Function<Exposition, FusionServer> crm =
        e -> FusionServer.builder("crm", "1.0.0").register(new CrmTools()).exposition(e).build();

    System.out.println("| connector | exposition | tools | bytes (UTF-8) | chars | est. tokens (chars/4) | GROUPED / FLAT | goal |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|---|");
    report("billing (3 actions)", billing, "-", printJson);
    report("crm (30 actions, 2 common fields)", crm, "GROUPED ≤ 0.5× FLAT", printJson);
  }

  private static void report(String name, Function<Exposition, FusionServer> connector,
      String goal, boolean printJson) throws IOException {
    Size flat = measure(name, connector.apply(Exposition.FLAT));
    Size grouped = measure(name, connector.apply(Exposition.GROUPED));
    double ratio = (double) grouped.bytes() / flat.bytes();
    String verdict = goal.equals("-") ? "-"
        : goal + (ratio <= 0.5 ? " — MET" : " — MISSED");
    row(flat, "", "");
    row(grouped, String.format(Locale.ROOT, "%.3f (bytes)", ratio), verdict);
    if (printJson) {
      System.out.println();
      System.out.println("FLAT " + name + ": " + flat.json());
      System.out.println("GROUPED " + name + ": " + grouped.json());
      System.out.println();
    }
  }

  private static void row(Size s, String ratio, String goal) {
    System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %d | ~%d | %s | %s |%n", s.connector(),
        s.exposition(), s.tools(), s.bytes(), s.chars(), s.estimatedTokens(), ratio, goal);
  }

  static Size measure(String name, FusionServer server) throws IOException {
    String json = dev.mcpfusion.core.server.McpJson.newMapper().writeValueAsString(
        new McpSchema.ListToolsResult(server.edge().tools(), null));
    return new Size(name, server.exposition(), server.edge().tools().size(),
        json.getBytes(StandardCharsets.UTF_8).length, json.length(), json);
  }
}
