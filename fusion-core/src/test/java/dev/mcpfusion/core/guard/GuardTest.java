package dev.mcpfusion.core.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The one gate-and-deadline step every request kind runs under. */
class GuardTest {
  private final Deadlines deadlines = new Deadlines();

  /** Answers refusals with their names, and remembers what the deadline discarded. */
  private static final class Refusals implements Guard.Refusal<String> {
    final AtomicReference<Throwable> discarded = new AtomicReference<>();

    @Override
    public String busy(ConcurrencyGate gate) {
      return "busy " + gate.maxConcurrent() + "/" + gate.queue();
    }

    @Override
    public String timedOut(Throwable discarded) {
      this.discarded.set(discarded);
      return "timeout";
    }
  }

  @Test
  void withinItsLimitsTheBodysResultOrFailureIsTheAnswer() throws Throwable {
    ActionLimits limits = new ActionLimits(2, 0, 10_000, -1, "method");
    ConcurrencyGate gate = new ConcurrencyGate(2, 0);
    assertThat(Guard.run(limits, gate, deadlines, null, new Refusals(), () -> "done"))
        .isEqualTo("done");
    assertThatThrownBy(() -> Guard.run(limits, gate, deadlines, null, new Refusals(), () -> {
      throw new IllegalStateException("handler failed");
    })).isInstanceOf(IllegalStateException.class).hasMessage("handler failed");
    assertThat(gate.running()).as("the slots are given back").isZero();
  }

  @Test
  void overCapacityTheBodyNeverRunsAndTheRefusalAnswersAtOnce() throws Throwable {
    ConcurrencyGate gate = new ConcurrencyGate(1, 0);
    ActionLimits limits = new ActionLimits(1, 0, -1, -1, "method");
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> {
      try {
        Guard.run(limits, gate, deadlines, null, new Refusals(), () -> {
          holding.countDown();
          return release.await(10, TimeUnit.SECONDS) ? "held" : "timeout";
        });
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    });
    holder.start();
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    AtomicBoolean ran = new AtomicBoolean();
    String answer = Guard.run(limits, gate, deadlines, null, new Refusals(), () -> {
      ran.set(true);
      return "ran";
    });
    release.countDown();
    holder.join(10_000);
    assertThat(answer).isEqualTo("busy 1/0");
    assertThat(ran).isFalse();
    assertThat(gate.running()).isZero();
  }

  @Test
  void pastTheDeadlineTheAnswerLeavesAtTheDeadlineAndTheLateOutcomeIsDiscarded() throws Throwable {
    ActionLimits limits = new ActionLimits(1, 0, 60, -1, "method");
    ConcurrencyGate gate = new ConcurrencyGate(1, 0);
    Refusals refusals = new Refusals();
    AtomicLong sentAt = new AtomicLong();
    AtomicBoolean sentWhileRunning = new AtomicBoolean();
    String answer = Guard.run(limits, gate, deadlines, () -> sentAt.set(System.nanoTime()),
        refusals, () -> {
          // Ignores its interrupt and runs on until the deadline's answer is out, then fails.
          long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
          while (sentAt.get() == 0 && System.nanoTime() < end) {
            Thread.onSpinWait();
          }
          sentWhileRunning.set(sentAt.get() != 0);
          throw new IllegalStateException("late failure");
        });

    assertThat(answer).isEqualTo("timeout");
    assertThat(sentWhileRunning).as("the answer left while the handler still ran").isTrue();
    assertThat(refusals.discarded.get()).hasMessage("late failure");
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(gate.running()).as("the slot was held until the body returned").isZero();
  }

  @Test
  void withoutAGateOrADeadlineTheBodyJustRuns() throws Throwable {
    assertThat(Guard.run(new ActionLimits(-1, -1, -1, 4096, null), null, deadlines, null,
        new Refusals(), () -> "plain")).isEqualTo("plain");
  }
}
