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

  /**
   * Threads find their deadline by id in a table of slots; a thread whose slot another live thread
   * holds still gets a deadline of its own, expires alone and leaves the other's untouched.
   */
  @Test
  void aThreadWhoseSlotAnotherThreadHoldsTimesItsOwnCalls() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Deadline[] held = new Deadline[1];
    boolean[] heldInTime = new boolean[1];
    Thread holder = new Thread(() -> {
      held[0] = deadlines.start(60_000, null);
      holding.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      heldInTime[0] = held[0].finish();
    });
    holder.start();
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

    Deadline[] own = new Deadline[2];
    boolean[] outcome = new boolean[3];
    Runnable calls = () -> {
      own[0] = deadlines.start(20, null);
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException expected) {
        outcome[0] = true;
      }
      outcome[1] = own[0].finish();
      own[1] = deadlines.start(60_000, null);
      outcome[2] = own[1].finish();
    };
    // New threads get ever higher ids: one of the next few hundred shares the holder's slot.
    Thread sharing = null;
    for (int i = 0; i < 10_000 && sharing == null; i++) {
      Thread candidate = new Thread(calls);
      if ((candidate.getId() & 255) == (holder.getId() & 255)) {
        sharing = candidate;
      }
    }
    assertThat(sharing).as("a thread id sharing the holder's slot").isNotNull();
    sharing.start();
    sharing.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(sharing.isAlive()).isFalse();
    assertThat(own[0]).isNotSameAs(held[0]).isSameAs(own[1]);
    assertThat(outcome[0]).as("interrupted at its deadline").isTrue();
    assertThat(outcome[1]).as("its late result discarded").isFalse();
    assertThat(outcome[2]).as("its next call in time").isTrue();

    assertThat(held[0].inForce()).as("the holder's call still runs").isTrue();
    release.countDown();
    holder.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(heldInTime[0]).isTrue();
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
