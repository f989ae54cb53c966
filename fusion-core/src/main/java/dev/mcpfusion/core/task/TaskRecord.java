package dev.mcpfusion.core.task;

import java.util.Objects;

/**
 * The state of one task as a {@link TaskStore} keeps it: plain values and JSON text only, never a
 * Java object of the running call, so a store may live outside the process (a fleet's shared
 * store). What runs the handler stays in the process that started it.
 *
 * @param taskId the task id: unguessable, the client's only handle on the task
 * @param owner who may see the task: the scope key of the request that created it
 *     ({@code ""} when the server has no task scope)
 * @param tool the tool the task runs (for logs and the status message)
 * @param status where the task is
 * @param statusMessage a sentence for the client about the status, or {@code null}
 * @param createdAtMs when the task was created, epoch milliseconds
 * @param lastUpdatedAtMs when the status last changed, epoch milliseconds
 * @param expiresAtMs when a finished task is forgotten, epoch milliseconds; {@code 0} while it runs
 * @param resultJson the tool result as JSON (status {@code completed}), or {@code null}
 * @param errorJson the JSON-RPC error as JSON (status {@code failed}), or {@code null}
 * @param inputRequestsJson the questions waiting for the client's answers, a JSON object keyed by
 *     request key (status {@code input_required}), or {@code null}
 */
public record TaskRecord(
    String taskId,
    String owner,
    String tool,
    TaskStatus status,
    String statusMessage,
    long createdAtMs,
    long lastUpdatedAtMs,
    long expiresAtMs,
    String resultJson,
    String errorJson,
    String inputRequestsJson) {

  public TaskRecord {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(status, "status");
  }

  /** Whether the task finished and its time to be kept has passed at {@code nowMs}. */
  public boolean expired(long nowMs) {
    return expiresAtMs > 0 && nowMs >= expiresAtMs;
  }

  /** This record with another status, message and update time (payload fields unchanged). */
  public TaskRecord withStatus(TaskStatus status, String statusMessage, long nowMs) {
    return new TaskRecord(taskId, owner, tool, status, statusMessage, createdAtMs, nowMs,
        expiresAtMs, resultJson, errorJson, inputRequestsJson);
  }

  /** This record with its questions replaced ({@code null}: none left). */
  public TaskRecord withInputRequests(String inputRequestsJson) {
    return new TaskRecord(taskId, owner, tool, status, statusMessage, createdAtMs, lastUpdatedAtMs,
        expiresAtMs, resultJson, errorJson, inputRequestsJson);
  }

  /**
   * This record finished at {@code nowMs} with {@code status}, its result or error, kept until
   * {@code expiresAtMs}; no question is left.
   */
  public TaskRecord finished(TaskStatus status, String statusMessage, String resultJson,
      String errorJson, long nowMs, long expiresAtMs) {
    return new TaskRecord(taskId, owner, tool, status, statusMessage, createdAtMs, nowMs,
        expiresAtMs, resultJson, errorJson, null);
  }
}
