package dev.mcpfusion.maven;

import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.Drift;
import dev.mcpfusion.lock.Lockfile;
import dev.mcpfusion.lock.Severity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Fails the build when the compiled connector no longer matches the committed
 * {@code mcpfusion.lock}, with one classified line per change (BREAKING / RISKY / SAFE / COSMETIC).
 * A missing lockfile fails too (deleting it must not switch the gate off); a new project's
 * {@linkplain Lockfile#SEED seed} is replaced by the contract on a developer's machine, and the
 * build goes on — but fails under CI, where a contract written and thrown away would leave the
 * gate off for good.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY,
    requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class CheckMojo extends AbstractLockMojo {

  /**
   * The lowest severity that fails the build: COSMETIC, SAFE, RISKY or BREAKING. Unset (the
   * default), any drift fails; changes below the threshold are still reported as warnings.
   */
  @Parameter(property = "mcpfusion.failOn")
  String failOn;

  /**
   * Rewrites the lockfile instead of failing (the report is still printed): {@code mvn verify
   * -Dmcpfusion.update=true}, handy where the plugin is built in the same reactor as the connector.
   */
  @Parameter(property = "mcpfusion.update", defaultValue = "false")
  boolean update;

  /**
   * Whether the build runs under continuous integration, where a seed lockfile fails instead of
   * being replaced: by default the {@code CI} environment variable that CI services set (any value
   * but empty or {@code false}).
   */
  @Parameter(property = "mcpfusion.ci", defaultValue = "${env.CI}")
  String ci;

  private boolean underCi() {
    return ci != null && !ci.isBlank() && !"false".equalsIgnoreCase(ci.trim());
  }

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("mcpfusion check skipped");
      return;
    }
    Severity threshold = threshold();
    java.util.Optional<Contract> computed = liveContract();
    if (computed.isEmpty()) {
      return;
    }
    Contract live = computed.get();
    if (update && !lockfile.isFile()) {
      write(live);
      return;
    }
    if (!lockfile.isFile()) {
      throw new MojoFailureException("No " + lockfile + ": the drift gate has no contract to compare"
          + " the connector with, and a deleted lockfile must not switch it off. Write one with"
          + " `mvn verify -Dmcpfusion.update=true` (or `mvn compile fusion:lock`), review it and"
          + " commit it.");
    }
    String committed;
    try {
      committed = Files.readString(lockfile.toPath(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("Cannot read " + lockfile + ": " + e, e);
    }
    if (Lockfile.isSeed(committed)) {
      if (underCi() && !update) {
        throw new MojoFailureException(lockfile + " is still the new project's seed: it records no"
            + " contract, so nothing would hold the connector's surface in CI. Run `mvn verify` on"
            + " your machine (it writes the contract into it), review it and commit it.");
      }
      getLog().info(lockfile.getName() + " is a new project's seed: recording the connector's"
          + " contract in it");
      write(live);
      return;
    }
    Drift drift;
    try {
      drift = Drift.check(committed, live);
    } catch (IllegalArgumentException e) {
      if (update) {
        getLog().warn(lockfile + ": " + e.getMessage());
        write(live);
        return;
      }
      throw new MojoFailureException(lockfile + ": " + e.getMessage(), e);
    }
    if (drift.isEmpty()) {
      getLog().info(lockfile.getName() + " matches the compiled connector (" + live.tools().size()
          + " tools, " + live.digest() + ")");
      return;
    }
    String message = lockfile.getName() + " drift: " + drift.changes().size() + " change(s), max "
        + drift.maxSeverity().orElseThrow() + "\n" + drift.report() + "\n"
        + "If these changes are intended, run `mvn compile fusion:lock` (or `mvn verify -Dmcpfusion.update=true`)"
        + " and commit " + lockfile.getName() + ".";
    if (update) {
      getLog().info(lockfile.getName() + " drift: " + drift.changes().size() + " change(s), max "
          + drift.maxSeverity().orElseThrow() + System.lineSeparator()
          + drift.report().replace("\n", System.lineSeparator()));
      write(live);
      return;
    }
    if (drift.fails(threshold)) {
      throw new MojoFailureException(message);
    }
    getLog().warn(message.replace("\n", System.lineSeparator()) + System.lineSeparator()
        + "(below failOn=" + threshold + ", so the build goes on)");
  }

  private Severity threshold() throws MojoExecutionException {
    if (failOn == null || failOn.isBlank()) {
      return null;
    }
    try {
      return Severity.valueOf(failOn.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("failOn must be one of " + Arrays.toString(Severity.values())
          + " but was '" + failOn + "'", e);
    }
  }
}
