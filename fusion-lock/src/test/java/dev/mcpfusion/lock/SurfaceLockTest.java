package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.AllowedIn;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.States;
import dev.mcpfusion.annotation.Tags;
import dev.mcpfusion.annotation.Transition;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lockfile records workflow states, transitions and tags; the drift rules classify each change. */
class SurfaceLockTest {
  // The fixture's action methods are named as its actions and take no parameters.
  @Router(value = "billing", tags = "billing")
  @States(initial = "draft", value = {"draft", "paid", "shipped"})
  static final class Gated {
    @AllowedIn({"draft", "paid"}) @Transition(to = "paid") @Tags("read")
    void get_invoice() {}
  }

  @Router(value = "billing", tags = "billing")
  @States(initial = "draft", value = {"draft", "paid", "shipped"})
  static final class Tightened {
    @AllowedIn("draft") @Transition(to = "paid") @Tags("read")
    void get_invoice() {}
  }

  @Router(value = "billing", tags = "billing")
  @States(initial = "draft", value = {"draft", "paid"})
  static final class StateRemoved {
    @AllowedIn({"draft", "paid"}) @Transition(to = "paid") @Tags("read")
    void get_invoice() {}
  }

  @Router(value = "billing", tags = "billing")
  @States(initial = "draft", value = {"draft", "paid", "shipped"})
  static final class Tagged {
    @AllowedIn({"draft", "paid"}) @Transition(to = "paid") @Tags({"read", "audit"})
    void get_invoice() {}
  }

  @Router(value = "billing", tags = "billing")
  @States(initial = "draft", value = {"draft", "paid", "shipped"})
  static final class Loosened {
    @Transition(to = "shipped") @Tags("read")
    void get_invoice() {}
  }

  @Router(value = "billing", tags = "billing")
  @States(initial = "paid", value = {"draft", "paid", "shipped"})
  static final class Restarted {
    @AllowedIn({"draft", "paid"}) @Transition(to = "paid") @Tags("read")
    void get_invoice() {}
  }

  @Router(value = "billing", tags = "billing")
  static final class Ungated {
    @Tags("read")
    void get_invoice() {}
  }

  static final class Plain {
    void get_invoice() {}
  }

  private static Contract contract(Class<?> type) {
    RouterDescriptor d = LockFixtures.billing();
    return Contract.of(List.of(new RouterDescriptor(d.name(), d.description(), type,
        d.commonFields(), d.actions(), d.middleware())), LockProfile.defaults());
  }

  @Test
  void statesTransitionsAndTagsAreRecordedAndSurviveTheFile() {
    Contract gated = contract(Gated.class);
    SurfaceContract surface = gated.surfaces().get("billing");
    assertThat(surface.states()).containsExactly("draft", "paid", "shipped");
    assertThat(surface.initial()).isEqualTo("draft");
    assertThat(surface.allowedIn()).containsEntry("get_invoice", List.of("draft", "paid"));
    assertThat(surface.transitions()).containsEntry("get_invoice", "paid");
    assertThat(surface.tags()).containsEntry("get_invoice", List.of("billing", "read"));
    String text = Lockfile.write(gated);
    assertThat(text).containsOnlyOnce("\"surfaces\"").contains("\"initial\": \"draft\"");
    assertThat(Lockfile.read(text)).isEqualTo(gated);
    assertThat(Drift.check(text, gated).isEmpty()).isTrue();
    // A connector without states or tags writes no key: older lockfiles do not drift.
    assertThat(Lockfile.write(contract(Plain.class))).doesNotContain("surfaces");
  }

  @Test
  void allowingFewerStatesIsBreaking() {
    assertThat(Drift.between(contract(Gated.class), contract(Tightened.class)).report())
        .isEqualTo("BREAKING workflow billing.get_invoice: no longer allowed in paid");
  }

  @Test
  void removingAStateIsBreaking() {
    assertThat(Drift.between(contract(Gated.class), contract(StateRemoved.class)).report())
        .isEqualTo("BREAKING workflow billing: state removed: shipped");
    assertThat(Drift.between(contract(StateRemoved.class), contract(Gated.class)).report())
        .isEqualTo("SAFE workflow billing: state added: shipped");
  }

  @Test
  void addingATagIsSafeAndRemovingOneBreaking() {
    assertThat(Drift.between(contract(Gated.class), contract(Tagged.class)).report())
        .isEqualTo("SAFE tags billing.get_invoice: tag added: audit");
    assertThat(Drift.between(contract(Tagged.class), contract(Gated.class)).maxSeverity())
        .hasValue(Severity.BREAKING);
  }

  @Test
  void allowingMoreStatesOrChangingATransitionIsRisky() {
    assertThat(Drift.between(contract(Gated.class), contract(Loosened.class)).report())
        .isEqualTo("RISKY workflow billing.get_invoice: now allowed in shipped\n"
            + "RISKY workflow billing.get_invoice: transition changed: paid \u2192 shipped");
  }

  @Test
  void changingTheInitialStateIsBreakingAndDroppingTheStatesRisky() {
    assertThat(Drift.between(contract(Gated.class), contract(Restarted.class)).report())
        .isEqualTo("BREAKING workflow billing: initial state changed: draft \u2192 paid");
    assertThat(Drift.between(contract(Gated.class), contract(Ungated.class)).report())
        .isEqualTo("RISKY workflow billing: workflow states removed (no action is gated any more)");
  }

  @Test
  void gatingARouterThatHadNoStatesIsBreaking() {
    assertThat(Drift.between(contract(Plain.class), contract(Gated.class)).maxSeverity())
        .hasValue(Severity.BREAKING);
    assertThat(Drift.between(contract(Gated.class), contract(Plain.class)).maxSeverity())
        .hasValue(Severity.BREAKING); // its tags are gone too
  }
}
