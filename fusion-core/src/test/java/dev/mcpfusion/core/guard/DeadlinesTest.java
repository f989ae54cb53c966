package dev.mcpfusion.core.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
  private final Deadlines deadlines = new Deadlines();

  @Test
  void aThreadReusesOneDeadlineForEveryCallThatFinishesInTime() {
    AtomicInteger expiries = new AtomicInteger();
    for (int i = 0; i < 10_000; i++) {
      Deadline deadline = deadlines.start(10_000, expiries::incrementAndGet);
      assertThat(deadline.finish()).isTrue();
    }
    assertThat(deadlines.tracked()).isEqualTo(1);
    assertThat(expiries).hasValue(0);
  }

  @Test
  void anExpiredCallIsInterruptedItsActionRunsOnceAndTheNextCallStartsClean() throws Exception {
    AtomicInteger expiries = new AtomicInteger();
    Deadline late = deadlines.start(20, expiries::incrementAndGet);
    boolean interrupted = false;
    try {
      Thread.sleep(10_000);
    } catch (InterruptedException expected) {
      interrupted = true;
    }
    assertThat(interrupted).as("the handler's thread is interrupted").isTrue();
    assertThat(late.finish()).as("the late result is discarded").isFalse();
    assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is cleared").isFalse();
    assertThat(expiries).hasValue(1);

    // The same thread's next call reuses the deadline as a new generation: an old sweep cannot
    // expire it, and it finishes in time.
    Deadline next = deadlines.start(10_000, expiries::incrementAndGet);
    assertThat(next).isSameAs(late);
    Thread.sleep(3 * Deadlines.TICK_MILLIS);
    assertThat(next.finish()).isTrue();
    assertThat(next.expired()).isFalse();
    assertThat(expiries).hasValue(1);
  }

  @Test
  void aNestedCallOnTheSameThreadGetsADeadlineOfItsOwn() throws Exception {
    AtomicInteger outerExpiries = new AtomicInteger();
    AtomicInteger innerExpiries = new AtomicInteger();
    Deadline outer = deadlines.start(10_000, outerExpiries::incrementAndGet);
    Deadline inner = deadlines.start(20, innerExpiries::incrementAndGet);
    assertThat(inner).isNotSameAs(outer);
    try {
      Thread.sleep(10_000);
    } catch (InterruptedException expected) {
      // the inner deadline
    }
    assertThat(inner.finish()).isFalse();
    assertThat(outer.finish()).isTrue();
    assertThat(innerExpiries).hasValue(1);
    assertThat(outerExpiries).hasValue(0);
    // The nested call's deadline is forgotten once settled; the thread's own one stays.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (deadlines.tracked() > 1 && System.nanoTime() < until) {
      Thread.sleep(Deadlines.TICK_MILLIS);
    }
    assertThat(deadlines.tracked()).isEqualTo(1);
  }

  @Test
  void theDeadlineOfAThreadThatEndedIsForgotten() throws Exception {
    CountDownLatch done = new CountDownLatch(4);
    for (int i = 0; i < 4; i++) {
      Thread t = new Thread(() -> {
        deadlines.start(10_000, null).finish();
        done.countDown();
      });
      t.start();
      t.join();
    }
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    // Keeps the sweeper ticking while it forgets the ended threads' deadlines.
    Deadline mine = deadlines.start(10_000, null);
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (deadlines.tracked() > 1 && System.nanoTime() < until) {
      Thread.sleep(Deadlines.TICK_MILLIS);
    }
    assertThat(deadlines.tracked()).isEqualTo(1);
    assertThat(mine.finish()).isTrue();
  }

  @Test
  void manyThreadsExpireExactlyTheCallsThatOverrunTheirDeadline() throws Exception {
    int threads = 8;
    int calls = 200;
    AtomicInteger expiries = new AtomicInteger();
    AtomicInteger discarded = new AtomicInteger();
    AtomicInteger slowCalls = new AtomicInteger();
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      workers[t] = new Thread(() -> {
        for (int i = 0; i < calls; i++) {
          boolean slow = i % 20 == 0;
          Deadline deadline = deadlines.start(slow ? 10 : 60_000, expiries::incrementAndGet);
          if (slow) {
            slowCalls.incrementAndGet();
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException expected) {
              // expired
            }
          }
          if (!deadline.finish()) {
            discarded.incrementAndGet();
          }
          assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
      });
      workers[t].start();
    }
    for (Thread worker : workers) {
      worker.join(TimeUnit.SECONDS.toMillis(60));
      assertThat(worker.isAlive()).isFalse();
    }
    assertThat(expiries.get()).isEqualTo(slowCalls.get()).isEqualTo(threads * calls / 20);
    assertThat(discarded.get()).isEqualTo(slowCalls.get());
  }
}
