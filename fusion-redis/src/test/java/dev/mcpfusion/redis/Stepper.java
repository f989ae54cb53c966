package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.RequestContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A call that reports progress in two halves, for the cross-instance resume test: the test cuts
 * the stream between them. One latch for every instance in this JVM: only the instance that
 * received the call runs it.
 */
@Router(value = "stepper", description = "Reports progress in steps")
public final class Stepper {
  /** What {@code run} waits for before its last two steps; the test sets a fresh one. */
  static volatile CountDownLatch goOn = new CountDownLatch(1);
  /** Counted down once {@code run} has sent its last step; the test sets a fresh one. */
  static volatile CountDownLatch stepped = new CountDownLatch(1);

  @Query(description = "Four progress steps, the last two once the test lets them go")
  public String run(RequestContext request) throws InterruptedException {
    request.progress(1, 4, "step 1");
    request.progress(2, 4, "step 2");
    if (!goOn.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the test never let the call go on");
    }
    request.progress(3, 4, "step 3");
    request.progress(4, 4, "step 4");
    stepped.countDown();
    return "all 4 steps done";
  }
}
