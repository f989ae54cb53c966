package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.lock.Lockfile;
import dev.mcpfusion.samples.billing.tools.BillingTools;
import dev.mcpfusion.testing.LockfileAssertions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed mcpfusion.lock, checked as a JUnit assertion (the build checks it too, at verify). */
class LockfileTest {
  private static final Path LOCKFILE = Path.of(System.getProperty("fusion.basedir", "."), "mcpfusion.lock");

  @Test
  void theCommittedLockfileMatchesTheConnector() throws Exception {
    LockfileAssertions.assertMatchesLockfile(LOCKFILE, LockProfile.defaults(), BillingTools.class);
  }

  @Test
  void driftFailsWithTheClassifiedReport(@TempDir Path dir) throws Exception {
    Path grouped = dir.resolve("mcpfusion.lock");
    LockProfile groupedProfile = new LockProfile(Exposition.GROUPED, "_", List.of());
    Files.writeString(grouped, Lockfile.write(
        Contract.of(List.of(ContractLoader.describeRouter(BillingTools.class)), groupedProfile)));

    assertThatThrownBy(() -> LockfileAssertions.assertMatchesLockfile(grouped, LockProfile.defaults(),
        BillingTools.class))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("max BREAKING")
        .hasMessageContaining("BREAKING");
  }
}
