package dev.mcpfusion.core.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrencyGateTest {
  @Test
  void admitsTheLimitQueuesTheQueueAndTurnsTheRestAway() throws Exception {
    ConcurrencyGate gate = new ConcurrencyGate(2, 1);
    assertThat(gate.enter()).isTrue();
    assertThat(gate.enter()).isTrue();
    CountDownLatch admitted = new CountDownLatch(1);
    Thread waiter = new Thread(() -> {
      try {
        if (gate.enter()) {
          admitted.countDown();
          gate.leave();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    waiter.start();
    while (gate.waiting() == 0) {
      Thread.onSpinWait();
    }
    assertThat(gate.enter()).as("queue full").isFalse();
    assertThat(gate.running()).isEqualTo(2);
    gate.leave();
    assertThat(admitted.await(10, TimeUnit.SECONDS)).isTrue();
    waiter.join();
    gate.leave();
    assertThat(gate.running()).isZero();
    assertThat(gate.waiting()).isZero();
  }

  @Test
  void anInterruptedWaiterHoldsNothing() throws Exception {
    ConcurrencyGate gate = new ConcurrencyGate(1, 1);
    assertThat(gate.enter()).isTrue();
    Thread waiter = new Thread(() -> {
      try {
        gate.enter();
      } catch (InterruptedException expected) {
        // left the queue
      }
    });
    waiter.start();
    while (gate.waiting() == 0) {
      Thread.onSpinWait();
    }
    waiter.interrupt();
    waiter.join();
    assertThat(gate.waiting()).isZero();
    assertThat(gate.running()).isEqualTo(1);
  }
}
