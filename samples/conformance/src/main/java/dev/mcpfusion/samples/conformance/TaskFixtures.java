package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.TaskMode;
import dev.mcpfusion.annotation.TaskSupport;
import dev.mcpfusion.core.Elicitation;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The tools the conformance suite's tasks scenarios call ({@code io.modelcontextprotocol/tasks},
 * 2026-07-28). FLAT exposition names a tool {@code router_action}, so each fixture is a router of
 * its own: {@code slow_compute}, {@code failing_job}, {@code protocol_error_job},
 * {@code confirm_delete}, {@code multi_input}.
 */
public final class TaskFixtures {
  private TaskFixtures() {}

  /** What {@code confirm_delete} asks. */
  public record Confirm(@Describe("Delete the file?") Boolean confirm) {}

  /** What each of {@code multi_input}'s two questions asks. */
  public record NameAndConfirm(@Describe("A name") String name, @Describe("Go ahead?") Boolean confirm) {}

  /** {@code slow_compute}: sleeps, then answers; the suite cancels the long ones. */
  @Router(value = "slow", description = "A slow computation, run as a task")
  public static final class Slow {
    @Action(description = "Sleeps the given number of seconds, then reports its label")
    @TaskSupport(TaskMode.OPTIONAL)
    public String compute(@Min(0) @Max(300) @Describe("How long to take, in seconds") int seconds,
        @Describe("A label echoed in the result") String label) throws InterruptedException {
      Thread.sleep(seconds * 1000L);
      return "Computed " + (label == null ? "" : label) + " in " + seconds + " s";
    }
  }

  /** {@code failing_job}: a task whose tool reports an error. */
  @Router(value = "failing", description = "A job that fails")
  public static final class Failing {
    @Action(description = "Works for about a second, then reports a tool error")
    @TaskSupport(TaskMode.REQUIRED)
    public String job() throws InterruptedException {
      Thread.sleep(1000);
      throw FusionError.of("JOB_FAILED", "The job failed on purpose (a conformance fixture).")
          .recovery("Nothing to do: this job always fails.");
    }
  }

  /** {@code protocol_error_job}: a task whose handler crashes (the server fails: status failed). */
  @Router(value = "protocol", description = "A job that crashes")
  public static final class Protocol {
    @Action(description = "Crashes: the task fails with an internal error")
    @TaskSupport(TaskMode.OPTIONAL)
    public String errorJob() {
      throw new IllegalStateException("a conformance fixture crashing on purpose");
    }
  }

  /** {@code confirm_delete}: asks the user once, then answers. */
  @Router(value = "confirm", description = "Deletes a file after the user confirms")
  public static final class ConfirmDelete {
    @Action(description = "Asks the user to confirm, then reports what it did")
    @TaskSupport(TaskMode.OPTIONAL)
    public String delete(@NotBlank @Describe("The file to delete") String filename,
        RequestContext request) {
      Elicitation<Confirm> answer = request.elicit(Confirm.class, "Delete " + filename + "?");
      boolean confirmed = answer.value().map(c -> Boolean.TRUE.equals(c.confirm())).orElse(false);
      return (confirmed ? "Deleted " : "Kept ") + filename + " (action="
          + answer.action().name().toLowerCase(Locale.ROOT) + ")";
    }
  }

  /** {@code multi_input}: asks two questions at once. */
  @Router(value = "multi", description = "Asks two questions at once")
  public static final class Multi {
    @Action(description = "Asks two questions in parallel, then reports both answers")
    @TaskSupport(TaskMode.OPTIONAL)
    public String input(RequestContext request) throws InterruptedException, ExecutionException {
      CompletableFuture<Elicitation<NameAndConfirm>> first = CompletableFuture.supplyAsync(
          () -> request.elicit(NameAndConfirm.class, "First question"));
      Elicitation<NameAndConfirm> second = request.elicit(NameAndConfirm.class, "Second question");
      return "Answers: " + first.get().value().map(NameAndConfirm::name).orElse("-") + ", "
          + second.value().map(NameAndConfirm::name).orElse("-");
    }
  }
}
