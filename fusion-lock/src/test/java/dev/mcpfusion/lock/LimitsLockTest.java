package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lockfile records each action's resolved limits; loosening or removing one is RISKY. */
class LimitsLockTest {
  @Limits(maxConcurrent = 8, queue = 16, timeoutMs = 5_000)
  static final class Limited {}

  @Limits(maxConcurrent = 8, queue = 32, timeoutMs = 2_000)
  static final class LooserQueueTighterTimeout {}

  private static Contract withRouterType(Class<?> type, LockProfile profile) {
    RouterDescriptor d = LockFixtures.billing();
    return Contract.of(List.of(new RouterDescriptor(d.name(), d.description(), type,
        d.commonFields(), d.actions(), d.middleware())), profile);
  }

  private static Map<String, Long> limits(Contract contract, String tool) {
    return contract.tools().get(tool).actions().values().iterator().next().limits();
  }

  @Test
  void routerAndServerLimitsAreRecordedPerActionAndSurviveTheFile() {
    LockProfile profile = LockProfile.defaults()
        .withLimits(CallLimits.none().maxEgressBytes(65_536).timeout(Duration.ofSeconds(30)));
    Contract contract = withRouterType(Limited.class, profile);

    assertThat(limits(contract, "billing_get_invoice")).containsEntry("maxConcurrent", 8L)
        .containsEntry("queue", 16L).containsEntry("timeoutMs", 5_000L)
        .containsEntry("maxEgressBytes", 65_536L);
    String text = Lockfile.write(contract);
    assertThat(text).contains("\"maxEgressBytes\": 65536");
    assertThat(Lockfile.read(text)).isEqualTo(contract);
    assertThat(Drift.between(Lockfile.read(text), contract).isEmpty()).isTrue();
  }

  @Test
  void withoutLimitsTheLockfileIsAsBefore() {
    String text = Lockfile.write(withRouterType(Object.class, LockProfile.defaults()));
    assertThat(text).doesNotContain("maxConcurrent").doesNotContain("timeoutMs")
        .doesNotContain("maxEgressBytes");
  }

  @Test
  void looseningALimitIsRiskyAndTighteningOneIsSafe() {
    Drift drift = Drift.between(withRouterType(Limited.class, LockProfile.defaults()),
        withRouterType(LooserQueueTighterTimeout.class, LockProfile.defaults()));
    assertThat(drift.changes()).filteredOn(c -> c.location().contains("get_invoice"))
        .extracting(Change::severity, Change::what, Change::before, Change::after)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(Severity.RISKY, "limit loosened: queue", "16", "32"),
            org.assertj.core.groups.Tuple.tuple(Severity.SAFE, "limit tightened: timeoutMs", "5000", "2000"));
    assertThat(drift.maxSeverity()).hasValue(Severity.RISKY);
  }

  @Test
  void removingALimitIsRiskyAndAddingOneIsSafe() {
    Contract limited = withRouterType(Limited.class, LockProfile.defaults());
    Contract none = withRouterType(Object.class, LockProfile.defaults());
    assertThat(Drift.between(limited, none).changes())
        .anyMatch(c -> c.severity() == Severity.RISKY && c.what().equals("limit removed: timeoutMs"));
    assertThat(Drift.between(none, limited).maxSeverity()).hasValue(Severity.SAFE);
  }
}
