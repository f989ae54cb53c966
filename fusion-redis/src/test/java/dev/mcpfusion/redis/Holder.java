package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A call that holds its permit until the test lets it go, and counts, inside the handler, the
 * calls running at once in every instance of this JVM: what the fleet budget test measures.
 */
@Router(value = "holder", description = "Holds calls until the test lets them go")
public final class Holder {
  /** What {@code hold} waits for; the test sets a fresh one. */
  static volatile CountDownLatch release = new CountDownLatch(1);
  /** Calls inside the handler now, across the instances. */
  static final AtomicInteger running = new AtomicInteger();
  /** The most calls inside the handler at once. */
  static final AtomicInteger most = new AtomicInteger();
  /** Calls that entered the handler. */
  static final AtomicInteger entered = new AtomicInteger();

  static void reset() {
    release = new CountDownLatch(1);
    running.set(0);
    most.set(0);
    entered.set(0);
  }

  @Query(description = "Wait until the test lets the call go")
  public String hold() throws InterruptedException {
    most.accumulateAndGet(running.incrementAndGet(), Math::max);
    entered.incrementAndGet();
    try {
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the call go");
      }
      return "held";
    } finally {
      running.decrementAndGet();
    }
  }
}
