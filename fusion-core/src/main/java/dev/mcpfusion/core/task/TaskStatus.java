package dev.mcpfusion.core.task;

/** Where a task is in its life; {@link #wire()} is the status a client reads. */
public enum TaskStatus {
  /** The handler is running. */
  WORKING("working"),
  /** The handler waits for the client's answer to a question (an elicitation, a sampling request). */
  INPUT_REQUIRED("input_required"),
  /** The handler returned: the result is the tool result (a tool error included). */
  COMPLETED("completed"),
  /** The server failed to produce a result: the task carries a JSON-RPC error instead. */
  FAILED("failed"),
  /** The client cancelled the task before it finished. */
  CANCELLED("cancelled");

  private final String wire;

  TaskStatus(String wire) {
    this.wire = wire;
  }

  /** The status as the protocol spells it. */
  public String wire() {
    return wire;
  }

  /** Whether the task can no longer change: completed, failed or cancelled. */
  public boolean terminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
