package ${package}.model;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Hidden;
import dev.mcpfusion.annotation.Model;

/**
 * A task as your system stores it. {@code @Hidden} fields never reach an agent, whatever a view
 * or a handler does: the compiler rejects a view that names one.
 */
@Model(description = "A task on someone's list")
public record Task(
    @Describe("Task ID, e.g. T-3") String id,
    @Describe("What has to be done") String title,
    @Describe("OPEN or DONE") TaskState state,
    @Hidden String ownerEmail) {

  /** This task, marked done. */
  public Task done() {
    return new Task(id, title, TaskState.DONE, ownerEmail);
  }
}
