package dev.mcpfusion.samples.billing;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.RequestContext;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What only {@link FleetTest} needs from an instance besides the billing connector: calls that
 * stream progress. {@code probe_work} runs under the fleet-wide budget ({@link FleetNode}) and
 * writes, inside the handler, a line when it starts and one when it ends ({@code start ID NANOS},
 * {@code end ID NANOS}; {@code System.nanoTime} is one clock for every process of the machine),
 * from which the test counts the calls running at once across the instances. {@code probe_stream}
 * reports progress for a long time, for the stream the test cuts and resumes across a SIGKILL.
 */
@Router(value = "probe", description = "Calls that report progress, for the fleet test")
public final class FleetProbe {
  private static final AtomicLong CALLS = new AtomicLong();
  private final FileOutputStream runs;
  private final String process = String.valueOf(ProcessHandle.current().pid());

  FleetProbe(FileOutputStream runs) {
    this.runs = runs;
  }

  @Query(description = "Report progress in a few steps, 2 ms apart")
  public String work(@Describe("How many steps, 1 to 20") int steps, RequestContext request)
      throws InterruptedException, IOException {
    String id = process + "-" + CALLS.incrementAndGet();
    FleetNode.record(runs, "start " + id + " " + System.nanoTime());
    try {
      int total = Math.max(1, Math.min(20, steps));
      for (int i = 1; i <= total; i++) {
        request.progress(i, total, "step " + i);
        Thread.sleep(2);
      }
      return "worked " + total + " steps";
    } finally {
      FleetNode.record(runs, "end " + id + " " + System.nanoTime());
    }
  }

  /**
   * One step every 50 ms: a stream cut 20 s before its instance dies keeps about 400 events, well
   * within the 1,000 the event store keeps of a stream.
   */
  @Query(description = "Report progress for a long time, one step every 50 ms")
  public String stream(@Describe("How many steps, 1 to 2000") int steps, RequestContext request)
      throws InterruptedException {
    int total = Math.max(1, Math.min(2_000, steps));
    for (int i = 1; i <= total; i++) {
      request.progress(i, total, "step " + i);
      Thread.sleep(50);
    }
    return "streamed " + total + " steps";
  }
}
