package dev.mcpfusion.testing;

import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.ContractLoader;
import dev.mcpfusion.lock.Drift;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The capability-lockfile check as a JUnit assertion: the same comparison {@code
 * fusion-maven-plugin:check} runs, for teams that gate in tests.
 *
 * <pre>{@code
 * LockfileAssertions.assertMatchesLockfile(Path.of("mcpfusion.lock"), LockProfile.defaults(),
 *     BillingTools.class);
 * }</pre>
 */
public final class LockfileAssertions {
  private LockfileAssertions() {}

  /**
   * Fails with the classified report (one line per change, BREAKING / RISKY / SAFE / COSMETIC)
   * when the classes (their tools, prompts and resources) no longer match the committed lockfile.
   * Reads the generated descriptors only; no class is instantiated.
   */
  public static void assertMatchesLockfile(Path lockfile, LockProfile profile, Class<?>... routerTypes)
      throws IOException {
    List<RouterDescriptor> routers = Arrays.stream(routerTypes)
        .filter(t -> t.isAnnotationPresent(dev.mcpfusion.annotation.Router.class))
        .map(ContractLoader::describeRouter).toList();
    List<dev.mcpfusion.core.spi.FeaturesDescriptor> features = Arrays.stream(routerTypes)
        .flatMap(t -> ContractLoader.featuresOf(t).stream()).toList();
    Drift drift = Drift.check(Files.readString(lockfile), Contract.of(routers, features, profile));
    if (drift.fails(null)) {
      throw new AssertionError("mcpfusion.lock drift (max " + drift.maxSeverity().orElseThrow() + "):\n"
          + drift.report());
    }
  }
}
