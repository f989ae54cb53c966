package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.SerializeOn;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The lockfile records whether an action's handler is async and its {@code @SerializeOn} key and
 * queue; the drift rules flag a serialisation removed or re-keyed.
 */
class AsyncAndSerializeLockTest {
  // The fixture's action methods are named as its actions and take no parameters.
  static final class Blocking {
    void get_invoice() {}
  }

  static final class Async {
    CompletableFuture<String> get_invoice() {
      return null;
    }
  }

  static final class Serial {
    @SerializeOn("id")
    void get_invoice() {}
  }

  static final class OtherKey {
    @SerializeOn(value = "tenant", queue = 4)
    void get_invoice() {}
  }

  private static Contract contract(Class<?> type) {
    RouterDescriptor d = LockFixtures.billing();
    return Contract.of(List.of(new RouterDescriptor(d.name(), d.description(), type,
        d.commonFields(), d.actions(), d.middleware())), LockProfile.defaults());
  }

  private static ActionContract action(Contract contract) {
    return contract.tools().get("billing_get_invoice").actions().get("get_invoice");
  }

  @Test
  void asyncAndTheKeyAreRecordedOnlyWhenSetAndSurviveTheFile() {
    Contract async = contract(Async.class);
    Contract serial = contract(Serial.class);
    assertThat(action(async).async()).isTrue();
    assertThat(action(serial).serializeOn()).isEqualTo("id");
    assertThat(action(serial).limits()).containsEntry(ActionContract.SERIALIZE_QUEUE, 16L);
    for (Contract c : List.of(async, serial, contract(OtherKey.class))) {
      String text = Lockfile.write(c);
      assertThat(Lockfile.read(text)).isEqualTo(c);
      assertThat(Drift.between(Lockfile.read(text), c).isEmpty()).isTrue();
    }
    assertThat(Lockfile.write(async)).containsOnlyOnce("\"async\": true");
    assertThat(Lockfile.write(serial)).containsOnlyOnce("\"serializeOn\": \"id\"")
        .containsOnlyOnce("\"serializeQueue\": 16");
    // Neither set: no key written, so lockfiles from before both features do not drift.
    assertThat(Lockfile.write(contract(Blocking.class))).doesNotContain("\"async\"",
        "\"serializeOn\"", "serializeQueue");
  }

  @Test
  void removingTheSerialisationIsRisky() {
    assertThat(Drift.between(contract(Serial.class), contract(Blocking.class)).report()).isEqualTo(
        "RISKY billing_get_invoice: limit removed: serializeQueue: 16 \u2192 none\n"
            + "RISKY billing_get_invoice: serialisation removed (calls on one entity may run at"
            + " once): id \u2192 none");
  }

  @Test
  void changingTheKeyIsRiskyAndAddingOneIsSafe() {
    assertThat(Drift.between(contract(Serial.class), contract(OtherKey.class)).report()).isEqualTo(
        "SAFE billing_get_invoice: limit tightened: serializeQueue: 16 \u2192 4\n"
            + "RISKY billing_get_invoice: serialisation key changed: id \u2192 tenant");
    assertThat(Drift.between(contract(Blocking.class), contract(Serial.class)).maxSeverity())
        .hasValue(Severity.SAFE);
  }

  @Test
  void aHandlerBecomingAsyncIsSafe() {
    assertThat(Drift.between(contract(Blocking.class), contract(Async.class)).report()).isEqualTo(
        "SAFE billing_get_invoice: handler now answers with a CompletionStage: false \u2192 true");
  }
}
