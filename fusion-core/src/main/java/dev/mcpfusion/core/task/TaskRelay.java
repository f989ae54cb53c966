package dev.mcpfusion.core.task;

/**
 * Hands a client's {@code tasks/update} answers and {@code tasks/cancel} to the instance that runs
 * the task's handler. A task's state is shared through its {@link TaskStore}, but its handler (the
 * thread, and the questions it waits on) lives only in the instance that started it; behind a load
 * balancer without affinity the client's next request may reach another instance, which sends the
 * answer or the cancel on to the runner through this relay.
 *
 * <p>A store that shares tasks between instances provides one ({@link TaskStore#relay()}); the
 * default, {@link #NONE}, routes nothing, as on a single instance every handler runs here. Called
 * from any thread.
 */
public interface TaskRelay {
  /** Routes nothing: no other instance runs a task, so nothing is sent and nothing heard. */
  TaskRelay NONE = new TaskRelay() {
    @Override
    public AutoCloseable listen(Receiver receiver) {
      return () -> { };
    }

    @Override
    public boolean send(String taskId, String message) {
      return false;
    }
  };

  /**
   * Starts handing the messages other instances {@link #send send} about tasks running here to
   * {@code receiver} (the server calls this once, when it starts); closing the handle stops it.
   */
  AutoCloseable listen(Receiver receiver);

  /**
   * Sends {@code message}, JSON text, about the task {@code taskId} to the instance that runs it.
   *
   * @return whether a handler there took it; {@code false} when no live instance runs that task
   *     (its runner stopped, or it is this instance) or the handler no longer waits for it
   * @throws RuntimeException when it cannot be sent now (the shared store does not answer), within
   *     the store's own timeout
   */
  boolean send(String taskId, String message);

  /** What an instance does with a message about a task it runs. */
  @FunctionalInterface
  interface Receiver {
    /** Hands {@code message} to the running handler of {@code taskId}; whether one took it. */
    boolean receive(String taskId, String message);
  }
}
