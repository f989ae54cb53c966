package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
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
 * 2026-07-28), with the one-word and two-word names the suite spells: {@code greet},
 * {@code slow_compute}, {@code failing_job}, {@code protocol_error_job}, {@code confirm_delete},
 * {@code multi_input}, {@code test_tool_with_task}. {@code @Router(prefixed = false)} names each FLAT tool by its action alone.
 */
@Router(value = "tasks", description = "The conformance suite's task fixtures", prefixed = false)
public final class TaskFixtures {
  /** What {@code confirm_delete} asks. */
  public record Confirm(@Describe("Delete the file?") Boolean confirm) {}

  /** What each of {@code multi_input}'s two questions asks. */
  public record NameAndConfirm(@Describe("A name") String name, @Describe("Go ahead?") Boolean confirm) {}

  /** What {@code test_tool_with_task} asks. */
  public record UserName(@Describe("Your name") String name) {}

  /**
   * {@code test_tool_with_task}: asks the user's name with input-required results, then runs as a
   * task ({@code tasks-mrtr-composition}).
   */
  @Action(description = "Asks your name, then greets you from a task")
  @TaskSupport(value = TaskMode.REQUIRED, inputFirst = true)
  public String testToolWithTask(RequestContext request) {
    Elicitation<UserName> answer = request.elicit(UserName.class, "What is your name?");
    request.startTask();
    return "Hello, " + answer.value().map(UserName::name).orElse("stranger") + ", from a task.";
  }

  /** {@code greet}: a direct call only (no task support); the suite checks it stays synchronous. */
  @Query(description = "Greets someone by name")
  public String greet(@NotBlank @Describe("Who to greet") String name) {
    return "Hello, " + name + "!";
  }

  /** {@code slow_compute}: sleeps, then answers; the suite cancels the long ones. */
  @Action(description = "Sleeps the given number of seconds, then reports its label")
  @TaskSupport(TaskMode.OPTIONAL)
  public String slowCompute(@Min(0) @Max(300) @Describe("How long to take, in seconds") int seconds,
      @Describe("A label echoed in the result") String label) throws InterruptedException {
    Thread.sleep(seconds * 1000L);
    return "Computed " + (label == null ? "" : label) + " in " + seconds + " s";
  }

  /** {@code failing_job}: a task whose tool reports an error. */
  @Action(description = "Works for about a second, then reports a tool error")
  @TaskSupport(TaskMode.REQUIRED)
  public String failingJob() throws InterruptedException {
    Thread.sleep(1000);
    throw FusionError.of("JOB_FAILED", "The job failed on purpose (a conformance fixture).")
        .recovery("Nothing to do: this job always fails.");
  }

  /** {@code protocol_error_job}: a task whose handler crashes (the server fails: status failed). */
  @Action(description = "Crashes: the task fails with an internal error")
  @TaskSupport(TaskMode.OPTIONAL)
  public String protocolErrorJob() {
    throw new IllegalStateException("a conformance fixture crashing on purpose");
  }

  /** {@code confirm_delete}: asks the user once, then answers. */
  @Action(description = "Asks the user to confirm, then reports what it did")
  @TaskSupport(TaskMode.OPTIONAL)
  public String confirmDelete(@NotBlank @Describe("The file to delete") String filename,
      RequestContext request) {
    Elicitation<Confirm> answer = request.elicit(Confirm.class, "Delete " + filename + "?");
    boolean confirmed = answer.value().map(c -> Boolean.TRUE.equals(c.confirm())).orElse(false);
    return (confirmed ? "Deleted " : "Kept ") + filename + " (action="
        + answer.action().name().toLowerCase(Locale.ROOT) + ")";
  }

  /** {@code multi_input}: asks two questions at once. */
  @Action(description = "Asks two questions in parallel, then reports both answers")
  @TaskSupport(TaskMode.OPTIONAL)
  public String multiInput(RequestContext request) throws InterruptedException, ExecutionException {
    CompletableFuture<Elicitation<NameAndConfirm>> first = CompletableFuture.supplyAsync(
        () -> request.elicit(NameAndConfirm.class, "First question"));
    Elicitation<NameAndConfirm> second = request.elicit(NameAndConfirm.class, "Second question");
    return "Answers: " + first.get().value().map(NameAndConfirm::name).orElse("-") + ", "
        + second.value().map(NameAndConfirm::name).orElse("-");
  }
}
