package dev.mcpfusion.core.task;

import dev.mcpfusion.core.RequestContext;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How a server keeps the tasks of its {@code @TaskSupport} actions, immutable:
 * {@code FusionServer.builder(...).tasks(TaskOptions.defaults().ttl(Duration.ofMinutes(10)))}.
 *
 * <ul>
 *   <li>{@link #ttl} (default 1 hour): how long a finished task's result is kept after it finished;
 *       then {@code tasks/get} answers that the task has expired;
 *   <li>{@link #pollInterval} (default 1 second): the polling interval suggested to clients;
 *   <li>{@link #maxTasks} (default 1000): the most tasks kept at once, running or finished and not
 *       expired; a call that would start one more is refused with {@code SERVER_BUSY};
 *   <li>{@link #store} (default {@link InMemoryTaskStore}): where tasks are kept;
 *   <li>{@link #scope} (default none): who may see a task. Each task records the key its creating
 *       request gives, and a request whose key differs is told the task does not exist. Without a
 *       scope a task is reachable by its id alone (128 random bits).
 * </ul>
 */
public final class TaskOptions {
  private final Duration ttl;
  private final Duration pollInterval;
  private final int maxTasks;
  private final TaskStore store;
  private final Function<RequestContext, String> scope;

  private TaskOptions(Duration ttl, Duration pollInterval, int maxTasks, TaskStore store,
      Function<RequestContext, String> scope) {
    this.ttl = ttl;
    this.pollInterval = pollInterval;
    this.maxTasks = maxTasks;
    this.store = store;
    this.scope = scope;
  }

  /** The defaults: 1 hour, 1 second, 1000 tasks, in memory, no scope. */
  public static TaskOptions defaults() {
    return new TaskOptions(Duration.ofHours(1), Duration.ofSeconds(1), 1000, null, null);
  }

  /** How long a finished task's result is kept; at least 1 millisecond. */
  public TaskOptions ttl(Duration ttl) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.toMillis() < 1) {
      throw new IllegalArgumentException("The task ttl must be at least 1 ms, got " + ttl + ".");
    }
    return new TaskOptions(ttl, pollInterval, maxTasks, store, scope);
  }

  /** The polling interval suggested to clients; at least 1 millisecond. */
  public TaskOptions pollInterval(Duration pollInterval) {
    Objects.requireNonNull(pollInterval, "pollInterval");
    if (pollInterval.toMillis() < 1) {
      throw new IllegalArgumentException(
          "The task poll interval must be at least 1 ms, got " + pollInterval + ".");
    }
    return new TaskOptions(ttl, pollInterval, maxTasks, store, scope);
  }

  /** The most tasks kept at once (running, or finished and not expired); at least 1. */
  public TaskOptions maxTasks(int maxTasks) {
    if (maxTasks < 1) {
      throw new IllegalArgumentException("maxTasks must be at least 1, got " + maxTasks + ".");
    }
    return new TaskOptions(ttl, pollInterval, maxTasks, store, scope);
  }

  /** Where tasks are kept (one store per server: it is not shared with another server's tasks). */
  public TaskOptions store(TaskStore store) {
    return new TaskOptions(ttl, pollInterval, maxTasks, Objects.requireNonNull(store, "store"), scope);
  }

  /**
   * Who may see a task: the key of the request that created it must equal the key of the request
   * that reads, answers or cancels it — say, the tenant: {@code .scope(r -> Tenant.from(r).id())}.
   * A {@code null} key is a key like any other; a scope that throws refuses the request.
   */
  public TaskOptions scope(Function<RequestContext, String> scope) {
    return new TaskOptions(ttl, pollInterval, maxTasks, store, Objects.requireNonNull(scope, "scope"));
  }

  public Duration ttl() {
    return ttl;
  }

  public Duration pollInterval() {
    return pollInterval;
  }

  public int maxTasks() {
    return maxTasks;
  }

  /** The store, or {@code null} for a new {@link InMemoryTaskStore} per server. */
  public TaskStore store() {
    return store;
  }

  /** The scope, or {@code null} for none. */
  public Function<RequestContext, String> scope() {
    return scope;
  }
}
