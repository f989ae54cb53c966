package ${package}.model;

/** Where a task stands. */
public enum TaskState {
  OPEN,
  DONE
}
