package ${package}.store;

import ${package}.model.Task;
import ${package}.model.TaskState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/** An in-memory stand-in for your real system: replace it with your database or API client. */
public final class TaskStore {
  private final Map<String, Task> tasks = new ConcurrentSkipListMap<>();

  /** Three example tasks, T-1 to T-3, one of them done. */
  public static TaskStore sample() {
    TaskStore store = new TaskStore();
    store.put(new Task("T-1", "Write the quarterly report", TaskState.OPEN, "ada@example.com"));
    store.put(new Task("T-2", "Book the team offsite", TaskState.DONE, "grace@example.com"));
    store.put(new Task("T-3", "Renew the TLS certificate", TaskState.OPEN, "alan@example.com"));
    return store;
  }

  /** Adds or replaces a task. */
  public void put(Task task) {
    tasks.put(task.id(), task);
  }

  /** The tasks in the given state, or all of them when {@code state} is null, by ID. */
  public List<Task> list(TaskState state) {
    return tasks.values().stream().filter(t -> state == null || t.state() == state).toList();
  }

  /** The task with this ID. */
  public Optional<Task> find(String id) {
    return Optional.ofNullable(tasks.get(id));
  }

  /** Replaces {@code expected} with {@code updated}, unless someone changed it meanwhile. */
  public boolean replace(Task expected, Task updated) {
    return tasks.replace(expected.id(), expected, updated);
  }
}
