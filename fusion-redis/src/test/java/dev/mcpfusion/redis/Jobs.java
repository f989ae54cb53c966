package dev.mcpfusion.redis;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.TaskMode;
import dev.mcpfusion.annotation.TaskSupport;
import dev.mcpfusion.core.Elicitation;
import dev.mcpfusion.core.RequestContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Task actions whose handlers the fleet tests watch: one held until interrupted, one that asks. */
@Router(value = "jobs", description = "Long calls run as tasks")
public final class Jobs {
  /** Counts down when {@code hold}'s handler starts. */
  final CountDownLatch started = new CountDownLatch(1);
  /** Counts down when {@code hold}'s handler stops. */
  final CountDownLatch stopped = new CountDownLatch(1);
  /** Whether {@code hold}'s handler saw its thread interrupted. */
  volatile boolean interrupted;

  /** The form {@code ask} fills in. */
  public record Answer(@Describe("Your name") String name) {}

  @Action(description = "Holds until interrupted (thirty seconds at most)")
  @TaskSupport(TaskMode.REQUIRED)
  public String hold() {
    started.countDown();
    try {
      Thread.sleep(TimeUnit.SECONDS.toMillis(30));
      return "never interrupted";
    } catch (InterruptedException e) {
      interrupted = true;
      return "interrupted";
    } finally {
      stopped.countDown();
    }
  }

  @Action(description = "Asks the user's name, then greets them")
  @TaskSupport(TaskMode.REQUIRED)
  public String ask(RequestContext request) {
    Elicitation<Answer> answer = request.elicit(Answer.class, "What is your name?");
    return "Hello, " + answer.value().map(Answer::name).orElse("nobody") + "!";
  }
}
