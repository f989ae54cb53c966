package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.TaskMode;
import dev.mcpfusion.annotation.TaskSupport;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lockfile records each action's {@code @TaskSupport} (its mode and {@code inputFirst}); the
 * drift rules classify a change of it.
 */
class TaskSupportLockTest {
  // The fixture's action methods are named as its actions and take no parameters.
  static final class Optional {
    @TaskSupport(TaskMode.OPTIONAL)
    void get_invoice() {}
  }

  static final class Required {
    @TaskSupport(TaskMode.REQUIRED)
    void get_invoice() {}
  }

  static final class None {
    void get_invoice() {}
  }

  static final class RequiredInputFirst {
    @TaskSupport(value = TaskMode.REQUIRED, inputFirst = true)
    void get_invoice() {}
  }

  private static Contract contract(Class<?> type) {
    RouterDescriptor d = LockFixtures.billing();
    return Contract.of(List.of(new RouterDescriptor(d.name(), d.description(), type,
        d.commonFields(), d.actions(), d.middleware())), LockProfile.defaults());
  }

  private static String task(Contract contract) {
    return contract.tools().get("billing_get_invoice").actions().get("get_invoice").task();
  }

  @Test
  void taskSupportIsRecordedOnlyWhenDeclaredAndSurvivesTheFile() {
    Contract optional = contract(Optional.class);
    assertThat(task(optional)).isEqualTo("OPTIONAL");
    String text = Lockfile.write(optional);
    assertThat(text).containsOnlyOnce("\"task\": \"OPTIONAL\"");
    assertThat(Lockfile.read(text)).isEqualTo(optional);
    assertThat(Drift.between(Lockfile.read(text), optional).isEmpty()).isTrue();
    // An action without @TaskSupport writes no key: lockfiles from before tasks do not drift.
    assertThat(Lockfile.write(contract(None.class))).doesNotContain("\"task\"");
    assertThat(task(contract(None.class))).isEmpty();
  }

  private static boolean inputFirst(Contract contract) {
    return contract.tools().get("billing_get_invoice").actions().get("get_invoice").taskInputFirst();
  }

  @Test
  void inputFirstIsRecordedOnlyWhenDeclaredAndSurvivesTheFile() {
    Contract first = contract(RequiredInputFirst.class);
    assertThat(inputFirst(first)).isTrue();
    String text = Lockfile.write(first);
    assertThat(text).containsOnlyOnce("\"taskInputFirst\": true");
    assertThat(Lockfile.read(text)).isEqualTo(first);
    assertThat(Drift.between(Lockfile.read(text), first).isEmpty()).isTrue();
    // Without it no key is written: lockfiles from before it do not drift.
    assertThat(Lockfile.write(contract(Required.class))).doesNotContain("taskInputFirst");
    assertThat(inputFirst(contract(Required.class))).isFalse();
  }

  @Test
  void inputFirstTurnedOnOrOffIsRisky() {
    assertThat(Drift.between(contract(Required.class), contract(RequiredInputFirst.class)).report())
        .isEqualTo("RISKY billing_get_invoice: task calls now gather their answers (input-required"
            + " results) before the task starts: false \u2192 true");
    assertThat(Drift.between(contract(RequiredInputFirst.class), contract(Required.class)).report())
        .isEqualTo("RISKY billing_get_invoice: task calls now start the task at once and ask inside"
            + " it: true \u2192 false");
  }

  @Test
  void becomingRequiredIsBreaking() {
    assertThat(Drift.between(contract(None.class), contract(Required.class)).report()).isEqualTo(
        "BREAKING billing_get_invoice: task support now required (clients without the tasks "
            + "extension are refused): none \u2192 REQUIRED");
    assertThat(Drift.between(contract(Optional.class), contract(Required.class)).maxSeverity())
        .hasValue(Severity.BREAKING);
  }

  @Test
  void requiredBecomingOptionalIsSafe() {
    assertThat(Drift.between(contract(Required.class), contract(Optional.class)).report())
        .isEqualTo("SAFE billing_get_invoice: task support no longer required: REQUIRED \u2192 OPTIONAL");
  }

  @Test
  void anyOtherChangeIsRisky() {
    assertThat(Drift.between(contract(None.class), contract(Optional.class)).report())
        .isEqualTo("RISKY billing_get_invoice: task support changed: none \u2192 OPTIONAL");
    assertThat(Drift.between(contract(Optional.class), contract(None.class)).maxSeverity())
        .hasValue(Severity.RISKY);
    assertThat(Drift.between(contract(Required.class), contract(None.class)).maxSeverity())
        .hasValue(Severity.RISKY);
  }
}
