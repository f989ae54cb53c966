package dev.mcpfusion.maven;

import static dev.mcpfusion.maven.Connectors.edit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.lock.Lockfile;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two goals as Maven runs them, on a connector compiled in the test. */
class LockGoalsTest {
  private static final String TOOLS = "acme/BillingTools.java";

  @Test
  void lockWritesTheFileThenCheckPassesAndDriftFailsWithTheReportUntilLockRunsAgain(@TempDir Path dir) throws Exception {
    Path project = Files.createDirectories(dir.resolve("project"));
    File lockfile = project.resolve("mcpfusion.lock").toFile();
    Path classes = Connectors.compile(Connectors.billing(), dir.resolve("v1"));

    LockMojo lock = lock(classes, lockfile);
    lock.execute();
    String written = Files.readString(lockfile.toPath(), StandardCharsets.UTF_8);
    assertThat(written).startsWith("{\n  \"digest\": \"sha256:").endsWith("}\n");
    check(classes, lockfile, null).execute();

    // remove an action, add a required parameter, change a description
    Map<String, String> changed = edit(Connectors.billing(), TOOLS, "getInvoice(@NotBlank String id)",
        "getInvoice(@NotBlank String id, @NotBlank String currency)");
    changed = edit(changed, TOOLS, "\"List invoices, newest first\"", "\"List the invoices, newest first\"");
    changed = edit(changed, TOOLS, "  @Action(description = \"Send the invoice by email\")\n"
        + "  public void sendInvoice(@NotBlank String id) {\n  }\n", "");
    Path v2 = Connectors.compile(changed, dir.resolve("v2"));

    assertThatThrownBy(() -> check(v2, lockfile, null).execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessage("""
            mcpfusion.lock drift: 3 change(s), max BREAKING
            BREAKING billing_get_invoice: required field added: currency
            COSMETIC billing_list_invoices: description changed: "List invoices, newest first" \u2192 "List the invoices, newest first"
            BREAKING billing_send_invoice: tool removed
            If these changes are intended, run `mvn compile fusion:lock` (or `mvn verify -Dmcpfusion.update=true`) and commit mcpfusion.lock.""");
    assertThat(Files.readString(lockfile.toPath(), StandardCharsets.UTF_8)).isEqualTo(written);

    lock(v2, lockfile).execute();
    check(v2, lockfile, null).execute();
    assertThat(Files.readString(lockfile.toPath(), StandardCharsets.UTF_8)).isNotEqualTo(written);
  }

  @Test
  void failOnLetsChangesBelowTheThresholdPass(@TempDir Path dir) throws Exception {
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    lock(Connectors.compile(Connectors.billing(), dir.resolve("v1")), lockfile).execute();
    Path cosmetic = Connectors.compile(edit(Connectors.billing(), TOOLS, "\"Get one invoice\"", "\"Fetch one invoice\""),
        dir.resolve("v2"));

    check(cosmetic, lockfile, "safe").execute();
    check(cosmetic, lockfile, "BREAKING").execute();
    assertThatThrownBy(() -> check(cosmetic, lockfile, "COSMETIC").execute())
        .isInstanceOf(MojoFailureException.class).hasMessageContaining("max COSMETIC");
    assertThatThrownBy(() -> check(cosmetic, lockfile, null).execute())
        .isInstanceOf(MojoFailureException.class);
    assertThatThrownBy(() -> check(cosmetic, lockfile, "severe").execute())
        .isInstanceOf(MojoExecutionException.class)
        .hasMessage("failOn must be one of [COSMETIC, SAFE, RISKY, BREAKING] but was 'severe'");
  }

  @Test
  void checkWithUpdateRewritesTheLockfileInsteadOfFailing(@TempDir Path dir) throws Exception {
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    Path v1 = Connectors.compile(Connectors.billing(), dir.resolve("v1"));
    CheckMojo create = check(v1, lockfile, null);
    create.update = true;
    create.execute();
    String written = Files.readString(lockfile.toPath(), StandardCharsets.UTF_8);
    check(v1, lockfile, null).execute();

    Path v2 = Connectors.compile(edit(Connectors.billing(), TOOLS, "\"Get one invoice\"", "\"Fetch one invoice\""),
        dir.resolve("v2"));
    assertThatThrownBy(() -> check(v2, lockfile, null).execute()).isInstanceOf(MojoFailureException.class);
    CheckMojo update = check(v2, lockfile, null);
    update.update = true;
    update.execute();
    check(v2, lockfile, null).execute();
    assertThat(Files.readString(lockfile.toPath(), StandardCharsets.UTF_8)).isNotEqualTo(written)
        .contains("\"Fetch one invoice\"");
  }

  @Test
  void aMissingLockfileFailsNamingTheFileAndTheCommandThatWritesIt(@TempDir Path dir) {
    Path classes = Connectors.compile(Connectors.billing(), dir.resolve("v1"));
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    assertThatThrownBy(() -> check(classes, lockfile, null).execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessage("No " + lockfile + ": the drift gate has no contract to compare the connector"
            + " with, and a deleted lockfile must not switch it off. Write one with"
            + " `mvn verify -Dmcpfusion.update=true` (or `mvn compile fusion:lock`), review it and"
            + " commit it.");
    assertThat(lockfile).doesNotExist();
  }

  /** The lockfile a project generated from fusion-archetype starts with. */
  private static final Path ARCHETYPE_LOCKFILE = Path.of("..", "fusion-archetype", "src", "main",
      "resources", "archetype-resources", "mcpfusion.lock");

  @Test
  void aNewProjectsSeedIsReplacedByTheContractOnTheFirstCheckAndTheGateHoldsFromThen(@TempDir Path dir)
      throws Exception {
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    Files.copy(ARCHETYPE_LOCKFILE, lockfile.toPath());
    Path v1 = Connectors.compile(Connectors.billing(), dir.resolve("v1"));

    check(v1, lockfile, null).execute();
    String written = Files.readString(lockfile.toPath(), StandardCharsets.UTF_8);
    assertThat(written).isEqualTo(Lockfile.write(Lockfile.read(written)))
        .contains("\"billing_get_invoice\"");
    lock(v1, dir.resolve("by-lock.lock").toFile()).execute();
    assertThat(written).isEqualTo(Files.readString(dir.resolve("by-lock.lock"), StandardCharsets.UTF_8));

    Path v2 = Connectors.compile(edit(Connectors.billing(), TOOLS, "\"Get one invoice\"",
        "\"Fetch one invoice\""), dir.resolve("v2"));
    assertThatThrownBy(() -> check(v2, lockfile, null).execute())
        .isInstanceOf(MojoFailureException.class).hasMessageContaining("mcpfusion.lock drift");
    Files.delete(lockfile.toPath());
    assertThatThrownBy(() -> check(v2, lockfile, null).execute())
        .isInstanceOf(MojoFailureException.class).hasMessageStartingWith("No " + lockfile);
  }

  @Test
  void underCiASeedFailsInsteadOfBeingReplaced(@TempDir Path dir) throws Exception {
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    Files.copy(ARCHETYPE_LOCKFILE, lockfile.toPath());
    Path classes = Connectors.compile(Connectors.billing(), dir.resolve("v1"));
    CheckMojo underCi = check(classes, lockfile, null);
    underCi.ci = "true";
    assertThatThrownBy(underCi::execute).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("is still the new project's seed")
        .hasMessageContaining("commit it");
    assertThat(Files.readString(lockfile.toPath(), StandardCharsets.UTF_8)).isEqualTo(Lockfile.SEED);
    CheckMojo notCi = check(classes, lockfile, null);
    notCi.ci = "false";
    notCi.execute();
    assertThat(Lockfile.isSeed(Files.readString(lockfile.toPath(), StandardCharsets.UTF_8))).isFalse();
  }

  @Test
  void theArchetypeShipsTheSeedAndNoProfileThatWritesAMissingLockfile() throws Exception {
    assertThat(Files.readString(ARCHETYPE_LOCKFILE, StandardCharsets.UTF_8)).isEqualTo(Lockfile.SEED);
    Path archetype = Path.of("..", "fusion-archetype", "src", "main", "resources");
    assertThat(Files.readString(archetype.resolve("META-INF/maven/archetype-metadata.xml"),
        StandardCharsets.UTF_8)).contains("<include>mcpfusion.lock</include>");
    assertThat(Files.readString(archetype.resolve("archetype-resources/pom.xml"),
        StandardCharsets.UTF_8)).doesNotContain("mcpfusion.update</").doesNotContain("<missing>");
  }

  @Test
  void aModuleWithoutRoutersIsSkippedUnlessItHasALockfile(@TempDir Path dir) throws Exception {
    Path empty = Files.createDirectories(dir.resolve("classes"));
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    lock(empty, lockfile).execute();
    check(empty, lockfile, null).execute();
    assertThat(lockfile).doesNotExist();

    Files.writeString(lockfile.toPath(), "{}\n");
    assertThatThrownBy(() -> check(empty, lockfile, null).execute())
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("No generated router (*_Fusion.class)")
        .hasMessageContaining("annotationProcessorPaths");
    assertThatThrownBy(() -> lock(empty, lockfile).execute())
        .isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("annotationProcessorPaths");
  }

  @Test
  void aHandEditedLockfileFailsTheCheckWithTheFix(@TempDir Path dir) throws Exception {
    File lockfile = dir.resolve("mcpfusion.lock").toFile();
    Path classes = Connectors.compile(Connectors.billing(), dir.resolve("v1"));
    lock(classes, lockfile).execute();
    Files.writeString(lockfile.toPath(), Files.readString(lockfile.toPath()).replace("\"agentLimit\": 50", "\"agentLimit\": 5"));
    assertThatThrownBy(() -> check(classes, lockfile, null).execute())
        .isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("does not match its content").hasMessageContaining("run the lock goal again");
  }

  private static LockMojo lock(Path classes, File lockfile) {
    LockMojo mojo = new LockMojo();
    configure(mojo, classes, lockfile);
    return mojo;
  }

  private static CheckMojo check(Path classes, File lockfile, String failOn) {
    CheckMojo mojo = new CheckMojo();
    configure(mojo, classes, lockfile);
    mojo.failOn = failOn;
    return mojo;
  }

  private static void configure(AbstractLockMojo mojo, Path classes, File lockfile) {
    mojo.classesDirectory = classes.toFile();
    mojo.classpathElements = List.of(classes.toString());
    mojo.lockfile = lockfile;
  }
}
