package ${package}.view;

import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Rules;
import ${package}.model.Task;
import ${package}.model.TaskState;

/**
 * What an agent sees of a task: exactly these fields. Lists longer than {@code agentLimit} are cut,
 * and the agent is told how many rows it did not see.
 */
@Presenter(model = Task.class, agentLimit = 20)
@Rules("Refer to a task by its ID; titles are not unique.")
public record TaskView(String id, String title, TaskState state) {}
