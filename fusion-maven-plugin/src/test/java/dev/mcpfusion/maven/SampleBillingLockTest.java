package dev.mcpfusion.maven;

import static dev.mcpfusion.maven.Connectors.edit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.lock.Lockfile;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The billing sample's own sources (read from {@code samples/billing}, never modified there),
 * compiled with the processor into temporary directories and run through the goals.
 */
class SampleBillingLockTest {
  private static final Path SAMPLE = Path.of("..", "samples", "billing", "src", "main", "java");
  private static final String TOOLS = "dev/mcpfusion/samples/billing/tools/BillingTools.java";

  /** The whole test class path: the connector's packages use the server API, not just the SPI. */
  private static Path compile(Map<String, String> files, Path dir) {
    return Connectors.compile(files, dir, System.getProperty("java.class.path"));
  }

  /**
   * The connector: the sample's model, presenter, store and tools packages. The launcher classes at
   * the package root wire transports (fusion-http and others) that this module does not depend on
   * and that contribute nothing to the lockfile.
   */
  private static Map<String, String> connector() {
    Map<String, String> files = new java.util.TreeMap<>(Connectors.sources(SAMPLE));
    files.keySet().removeIf(path -> path.lastIndexOf('/') == "dev/mcpfusion/samples/billing".length());
    return files;
  }

  @Test
  void theBillingLockfileIsByteIdenticalAcrossTwoCleanBuilds(@TempDir Path dir) {
    Map<String, String> sources = connector();
    String first = Lockfile.write(Connectors.contract(compile(sources, dir.resolve("one")), LockProfile.defaults()));
    String second = Lockfile.write(Connectors.contract(compile(sources, dir.resolve("two")), LockProfile.defaults()));
    assertThat(second).isEqualTo(first);
    assertThat(Lockfile.read(first).tools().keySet())
        .containsExactly("billing_get_invoice", "billing_list_invoices", "billing_void_invoice");
    assertThat(first).contains("\"dev.mcpfusion.samples.billing.tools.TenantGuard\"")
        .contains("\"billing.*\"").contains("\"NO_STORE\"");
  }

  @Test
  void changingTheSampleFailsTheCheckAndLockBringsItBack(@TempDir Path dir) throws Exception {
    Map<String, String> sources = connector();
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    Path committed = compile(sources, dir.resolve("committed"));
    mojo(new LockMojo(), committed, lockfile).execute();
    mojo(new CheckMojo(), committed, lockfile).execute();

    String tools = sources.get(TOOLS);
    int start = tools.indexOf("  @Mutation(");
    int end = tools.indexOf("  private static FusionError notFound");
    assertThat(start).as("BillingTools has a @Mutation followed by notFound(...)").isPositive();
    assertThat(end).isGreaterThan(start);
    Map<String, String> removed = Map.copyOf(sources);
    removed = new java.util.TreeMap<>(removed);
    removed.put(TOOLS, tools.substring(0, start) + tools.substring(end));
    // The view's suggestion of the removed action would no longer compile
    // ([fusion/UnknownReference]): point it at an action that still exists.
    removed = edit(removed, "dev/mcpfusion/samples/billing/presenter/InvoiceView.java",
        "\"billing.void_invoice\"", "\"billing.get_invoice\"");

    List<Object[]> changes = List.of(
        new Object[] {removed, "BREAKING billing_void_invoice: tool removed"},
        new Object[] {edit(sources, TOOLS, "public Invoice getInvoice(@NotBlank",
            "public Invoice getInvoice(@NotBlank String currency, @NotBlank"),
            "BREAKING billing_get_invoice: required field added: currency"},
        new Object[] {exposeSecret(sources),
            "BREAKING billing_get_invoice: egress fields changed: [id, totalCents, status] \u2192 [id, totalCents, status, webhookSecret]"},
        new Object[] {edit(sources, TOOLS, "\"Get one invoice\"", "\"Fetch one invoice\""),
            "COSMETIC billing_get_invoice: description changed: \"Get one invoice\" \u2192 \"Fetch one invoice\""});
    int n = 0;
    for (Object[] change : changes) {
      @SuppressWarnings("unchecked")
      Path changed = compile((Map<String, String>) change[0], dir.resolve("change" + n++));
      assertThatThrownBy(() -> mojo(new CheckMojo(), changed, lockfile).execute())
          .isInstanceOf(MojoFailureException.class)
          .hasMessageContaining((String) change[1]);
    }
    String before = Files.readString(lockfile.toPath(), StandardCharsets.UTF_8);
    Path last = dir.resolve("change" + (n - 1)).resolve("classes");
    mojo(new LockMojo(), last, lockfile).execute();
    mojo(new CheckMojo(), last, lockfile).execute();
    assertThat(Files.readString(lockfile.toPath(), StandardCharsets.UTF_8)).isNotEqualTo(before);
  }

  /** One more view field: the webhook secret loses {@code @Hidden} and the view exposes it. */
  private static Map<String, String> exposeSecret(Map<String, String> sources) {
    Map<String, String> out = edit(sources, "dev/mcpfusion/samples/billing/model/Invoice.java",
        "@Hidden String webhookSecret", "String webhookSecret");
    return edit(out, "dev/mcpfusion/samples/billing/presenter/InvoiceView.java",
        "InvoiceView(String id, long totalCents, InvoiceStatus status)",
        "InvoiceView(String id, long totalCents, InvoiceStatus status, String webhookSecret)");
  }

  private static <M extends AbstractLockMojo> M mojo(M mojo, Path classes, File lockfile) {
    mojo.classesDirectory = classes.toFile();
    mojo.classpathElements = List.of(classes.toString());
    mojo.lockfile = lockfile;
    return mojo;
  }
}
