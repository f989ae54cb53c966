package dev.mcpfusion.core.task;

import java.util.function.UnaryOperator;

/**
 * Where tasks are kept between the request that starts one and those that poll, answer or cancel
 * it. The state is a {@link TaskRecord} of plain values and JSON text, so an implementation may
 * keep it anywhere (the default, {@link InMemoryTaskStore}, keeps it in this process; a fleet can
 * keep it in a shared store). Every method is called from many threads at once.
 */
public interface TaskStore {
  /**
   * Stores a new task, unless the store already holds {@code maxTasks} tasks that have not expired
   * at {@code nowMs}: then nothing is stored and {@code false} is returned. The task must be
   * readable by {@link #get} as soon as this returns {@code true}.
   */
  boolean create(TaskRecord task, int maxTasks, long nowMs);

  /** The task with {@code taskId}, expired or not, or {@code null} when the store has none. */
  TaskRecord get(String taskId);

  /**
   * Replaces the task with {@code taskId} by {@code change} applied to it, atomically for that
   * task: {@code change} may be called again when the task changed meanwhile, and returning its
   * argument unchanged changes nothing. Returns the stored result, or {@code null} when the store
   * has no such task.
   */
  TaskRecord update(String taskId, UnaryOperator<TaskRecord> change);

  /** Forgets the tasks that expired at {@code nowMs}; returns how many it forgot. */
  int purgeExpired(long nowMs);

  /**
   * How a {@code tasks/update} or {@code tasks/cancel} reaching this instance gets to the instance
   * running the task, when the store is shared between instances; {@link TaskRelay#NONE} (the
   * default) when every task runs in this process.
   */
  default TaskRelay relay() {
    return TaskRelay.NONE;
  }
}
