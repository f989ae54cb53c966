package dev.mcpfusion.core.task;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The default {@link TaskStore}: the tasks of this process, in a concurrent map. Creation is
 * serialised so the bound on tasks holds exactly; reads and updates of different tasks do not
 * wait for each other.
 */
public final class InMemoryTaskStore implements TaskStore {
  private final ConcurrentHashMap<String, TaskRecord> tasks = new ConcurrentHashMap<>();

  @Override
  public synchronized boolean create(TaskRecord task, int maxTasks, long nowMs) {
    if (tasks.size() >= maxTasks) {
      purgeExpired(nowMs);
      if (tasks.size() >= maxTasks) {
        return false;
      }
    }
    return tasks.putIfAbsent(task.taskId(), task) == null;
  }

  @Override
  public TaskRecord get(String taskId) {
    return tasks.get(taskId);
  }

  @Override
  public TaskRecord update(String taskId, UnaryOperator<TaskRecord> change) {
    return tasks.computeIfPresent(taskId, (id, task) -> change.apply(task));
  }

  @Override
  public int purgeExpired(long nowMs) {
    int before = tasks.size();
    tasks.values().removeIf(task -> task.expired(nowMs));
    return before - tasks.size();
  }

  /** How many tasks the store holds (expired ones not yet purged included). */
  public int size() {
    return tasks.size();
  }
}
