package dev.mcpfusion.core.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code @SerializeOn}'s gate: one call per key at a time, a bounded queue per key, no key kept idle. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KeyedGateTest {

  @Test
  void aSecondCallWithTheSameKeyWaitsForTheFirst() throws Exception {
    KeyedGate gate = new KeyedGate("id", 4);
    assertThat(gate.enter("INV-1")).isTrue();
    CountDownLatch entered = new CountDownLatch(1);
    Thread second = new Thread(() -> {
      try {
        if (gate.enter("INV-1")) {
          entered.countDown();
          gate.leave("INV-1");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    second.start();
    assertThat(entered.await(200, TimeUnit.MILLISECONDS)).isFalse();
    // Another key is not held up.
    assertThat(gate.enter("INV-2")).isTrue();
    gate.leave("INV-2");

    gate.leave("INV-1");
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    second.join(10_000);
    assertThat(gate.keys()).isZero();
  }

  @Test
  void pastTheQueueACallIsTurnedAway() throws Exception {
    KeyedGate gate = new KeyedGate("id", 1);
    assertThat(gate.enter(KeyedGate.key(7))).isTrue();
    Thread waiter = new Thread(() -> {
      try {
        if (gate.enter(KeyedGate.key(7L))) {
          gate.leave(KeyedGate.key(7L));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    waiter.start();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (waiter.getState() != Thread.State.WAITING && System.nanoTime() < end) {
      Thread.onSpinWait();
    }
    // 7, 7L and 7.0 are one key: the one waiting place is taken.
    assertThat(gate.enter(KeyedGate.key(7.0))).isFalse();
    assertThat(gate.enter("7")).isTrue(); // a string is another key
    gate.leave("7");
    gate.leave(KeyedGate.key(7));
    waiter.join(10_000);
    assertThat(gate.keys()).isZero();
  }

  @Test
  void aQueueOfZeroLetsNoCallWait() throws Exception {
    KeyedGate gate = new KeyedGate("id", 0);
    assertThat(gate.enter("a")).isTrue();
    assertThat(gate.enter("a")).isFalse();
    gate.leave("a");
    assertThat(gate.enter("a")).isTrue();
    gate.leave("a");
  }

  @Test
  void keysAreForgottenOnceNoCallHoldsOrWaitsForThem() throws Exception {
    KeyedGate gate = new KeyedGate("id", 16);
    for (int i = 0; i < 10_000; i++) {
      assertThat(gate.enter("key-" + i)).isTrue();
      gate.leave("key-" + i);
    }
    assertThat(gate.keys()).isZero();

    // A waiter that gives up (interrupted: a deadline, a cancellation) leaves nothing behind either.
    assertThat(gate.enter("held")).isTrue();
    AtomicBoolean interrupted = new AtomicBoolean();
    Thread waiter = new Thread(() -> {
      try {
        gate.enter("held");
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
    });
    waiter.start();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (waiter.getState() != Thread.State.WAITING && System.nanoTime() < end) {
      Thread.onSpinWait();
    }
    waiter.interrupt();
    waiter.join(10_000);
    assertThat(interrupted).isTrue();
    gate.leave("held");
    assertThat(gate.keys()).isZero();
  }

  @Test
  void aNegativeQueueIsRefusedAndLeaveNeedsEnter() {
    assertThatThrownBy(() -> new KeyedGate("id", -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new KeyedGate("id", 1).leave("x"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aCallWithoutTheArgumentHasNoKey() {
    assertThat(KeyedGate.key(null)).isNull();
    assertThat(KeyedGate.key(1)).isEqualTo(KeyedGate.key(1.0)).isEqualTo(1L);
    assertThat(KeyedGate.key(1.5)).isEqualTo(1.5);
  }
}
