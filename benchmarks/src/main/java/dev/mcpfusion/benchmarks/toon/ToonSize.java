package dev.mcpfusion.benchmarks.toon;

import dev.mcpfusion.benchmarks.context.CrmTools;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * What TOON saves, no JMH: the data block of the billing sample's {@code list_invoices} (50 of
 * 1,000 invoices) as JSON against the same rows as TOON, and the GROUPED description of the
 * 30-action {@link CrmTools} as text against {@code toonDescriptions(true)}. Prints a Markdown
 * table of UTF-8 bytes, characters and a chars/4 token estimate; with {@code --out DIR} also writes
 * each text to {@code DIR/<name>.txt} for a real tokenizer ({@code benchmarks/toon-tokens.mjs}).
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.toon.ToonSize [--out DIR]</pre>
 */
public final class ToonSize {
  private ToonSize() {}

  public static void main(String[] args) throws IOException {
    Path out = args.length == 2 && args[0].equals("--out") ? Path.of(args[1]) : null;
    InvoiceStore store = InvoiceStore.sample();

    FusionServer json = BillingConnector.builder(store, Exposition.FLAT).build();
    FusionServer toon = FusionServer.builder("billing", "1.0.0")
        .register(new ToonInvoiceTools(store)).build();
    Reply jsonReply = json.edge().call("billing_list_invoices", Map.of(), RequestContext.empty());
    Reply toonReply = toon.edge().call("billing_list_invoices", Map.of(), RequestContext.empty());
    // The same 50 rows on both sides, or the comparison means nothing.
    if (jsonReply.isError() || toonReply.isError() || jsonReply.items() != 50
        || !jsonReply.structuredContent().equals(toonReply.structuredContent())) {
      throw new IllegalStateException("the JSON and TOON replies do not show the same rows:\n"
          + jsonReply + "\n" + toonReply);
    }

    FusionServer crmText = FusionServer.builder("crm", "1.0.0").register(new CrmTools())
        .exposition(Exposition.GROUPED).build();
    FusionServer crmToon = FusionServer.builder("crm", "1.0.0").register(new CrmTools())
        .exposition(Exposition.GROUPED).toonDescriptions(true).build();
    String textDescription = crmText.edge().tools().get(0).description();
    String toonDescription = crmToon.edge().tools().get(0).description();

    System.out.println("| text | format | bytes (UTF-8) | chars | est. tokens (chars/4) | TOON / JSON or text (chars) |");
    System.out.println("|---|---|---:|---:|---:|---:|");
    String a = jsonReply.blocks().get(0);
    String b = toonReply.blocks().get(0);
    row("list_invoices data block (50 rows)", "JSON", a, a, out, "list_invoices.json");
    row("list_invoices data block (50 rows)", "TOON", b, a, out, "list_invoices.toon");
    String c = jsonReply.text();
    String d = toonReply.text();
    row("list_invoices whole reply text (data, summary, rules, suggestions)", "JSON", c, c, out,
        "list_invoices_reply.json");
    row("list_invoices whole reply text (data, summary, rules, suggestions)", "TOON", d, c, out,
        "list_invoices_reply.toon");
    row("crm GROUPED description (30 actions)", "text", textDescription, textDescription, out,
        "crm_description.txt");
    row("crm GROUPED description (30 actions)", "TOON", toonDescription, textDescription, out,
        "crm_description.toon");
  }

  private static void row(String what, String format, String text, String base, Path out,
      String file) throws IOException {
    System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | ~%d | %.3f |%n", what, format,
        text.getBytes(StandardCharsets.UTF_8).length, text.length(), Math.round(text.length() / 4.0),
        (double) text.length() / base.length());
    if (out != null) {
      Files.createDirectories(out);
      Files.writeString(out.resolve(file), text, StandardCharsets.UTF_8);
    }
  }
}
