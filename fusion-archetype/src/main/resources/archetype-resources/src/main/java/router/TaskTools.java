package ${package}.router;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.FusionError;
import ${package}.model.Task;
import ${package}.model.TaskState;
import ${package}.store.TaskStore;
import ${package}.view.TaskView;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.util.List;

/**
 * The tools an agent sees: {@code tasks_list_tasks}, {@code tasks_get_task} and
 * {@code tasks_complete_task}. The processor turns each method into a tool with an input schema
 * (from the parameters and their constraints) and an output schema (from the view).
 */
@Router(value = "tasks", description = "Tasks: list, inspect and complete them")
public final class TaskTools {
  private final TaskStore store;

  public TaskTools(TaskStore store) {
    this.store = store;
  }

  @Query(description = "List tasks by ID", presenter = TaskView.class)
  public List<Task> listTasks(@Describe("Only tasks in this state") TaskState state) {
    return store.list(state);
  }

  @Query(description = "Get one task", presenter = TaskView.class)
  public Task getTask(@NotBlank @Pattern(regexp = "T-\\d+") String id) {
    return store.find(id).orElseThrow(() -> notFound(id));
  }

  @Mutation(description = "Mark an open task done", presenter = TaskView.class)
  @Invalidates("tasks.*")
  public Task completeTask(@NotBlank @Pattern(regexp = "T-\\d+") String id) {
    Task task = store.find(id).orElseThrow(() -> notFound(id));
    if (task.state() == TaskState.DONE) {
      throw FusionError.conflict("Task \"" + id + "\" is already done.")
          .recovery("Do not complete it again; call tasks.list_tasks to find open tasks.")
          .actions("tasks.list_tasks");
    }
    Task done = task.done();
    if (!store.replace(task, done)) {
      throw FusionError.conflict("Task \"" + id + "\" changed while it was being completed.")
          .recovery("Call tasks.get_task, then try again if it is still OPEN.")
          .actions("tasks.get_task");
    }
    return done;
  }

  private static FusionError notFound(String id) {
    return FusionError.notFound("Task \"" + id + "\" does not exist.")
        .recovery("Call tasks.list_tasks first to find valid IDs.")
        .actions("tasks.list_tasks")
        .detail("task_id", id);
  }
}
