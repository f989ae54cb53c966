package dev.mcpfusion.benchmarks.wire;

import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.NonBlocking;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.FusionError;
import jakarta.validation.constraints.Min;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load test's router: a quick success, a validation target, a not-found, a call that always
 * runs past its deadline and a call behind a small concurrency gate that measures, inside the
 * handler, how many of its calls run at once.
 */
@Router(value = "load", description = "Mixed calls for the load test")
public final class LoadTools {
  /** The gate of {@link #work}: calls running at once. */
  public static final int WORK_CONCURRENT = 4;
  /** The gate of {@link #work}: calls waiting. */
  public static final int WORK_QUEUE = 2;
  /** The deadline of {@link #slow}. */
  public static final long SLOW_TIMEOUT_MS = 25;

  /** {@code work} calls inside the handler now. */
  public final AtomicInteger working = new AtomicInteger();
  /** The most {@code work} calls ever inside the handler at once. */
  public final AtomicInteger peakWorking = new AtomicInteger();
  /** {@code slow} handlers that saw their interrupt. */
  public final AtomicInteger interrupted = new AtomicInteger();

  @Query(description = "Echoes its number")
  @NonBlocking
  public String echo(@Min(0) long n) {
    return "echo " + n;
  }

  @Query(description = "Finds nothing")
  @NonBlocking
  public String find(long n) {
    throw FusionError.notFound("Item " + n + " does not exist.")
        .recovery("Call load_echo instead.");
  }

  @Query(description = "Sleeps past its deadline")
  @Limits(timeoutMs = SLOW_TIMEOUT_MS)
  public String slow(long n) {
    try {
      Thread.sleep(10_000);
      return "slow " + n;
    } catch (InterruptedException e) {
      interrupted.incrementAndGet();
      return "late " + n;
    }
  }

  @Query(description = "A little work behind a small gate")
  @Limits(maxConcurrent = WORK_CONCURRENT, queue = WORK_QUEUE)
  public String work(long n) throws InterruptedException {
    int now = working.incrementAndGet();
    peakWorking.accumulateAndGet(now, Math::max);
    try {
      Thread.sleep(1);
      return "work " + n;
    } finally {
      working.decrementAndGet();
    }
  }
}
