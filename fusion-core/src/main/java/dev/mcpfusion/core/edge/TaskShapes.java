package dev.mcpfusion.core.edge;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.wire.Meta;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wire shapes of the tasks extension, written from a stored {@link TaskRecord}: the
 * {@code CreateTaskResult} a started call answers, the {@code tasks/get} result, and the plain
 * acknowledgement of {@code tasks/update} and {@code tasks/cancel}.
 */
final class TaskShapes {
  private final TaskOptions options;
  private final String serverInfo;

  TaskShapes(TaskOptions options, String serverInfo) {
    this.options = options;
    this.serverInfo = serverInfo;
  }

  /** The {@code Task} members every shape shares. */
  private Map<String, Object> task(TaskRecord t, long now) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("taskId", t.taskId());
    out.put("status", t.status().wire());
    if (t.statusMessage() != null) {
      out.put("statusMessage", t.statusMessage());
    }
    out.put("createdAt", Instant.ofEpochMilli(t.createdAtMs()).toString());
    out.put("lastUpdatedAt", Instant.ofEpochMilli(t.lastUpdatedAtMs()).toString());
    // From creation: until the result is forgotten, or (while it runs) at least the ttl from now.
    long ttlFromCreation = t.expiresAtMs() > 0 ? t.expiresAtMs() - t.createdAtMs()
        : now - t.createdAtMs() + options.ttl().toMillis();
    out.put("ttlMs", Math.max(1, ttlFromCreation));
    out.put("pollIntervalMs", Math.max(1, options.pollInterval().toMillis()));
    return out;
  }

  /** A {@code CreateTaskResult}: the task, flat, with {@code resultType: "task"}. */
  Map<String, Object> handle(TaskRecord t, long now) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("resultType", "task");
    out.putAll(task(t, now));
    out.put("_meta", serverInfoMeta());
    return out;
  }

  /** A {@code tasks/get} result: the task with what its status carries inlined. */
  Map<String, Object> detailed(TaskRecord t, long now) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("resultType", "complete");
    out.putAll(task(t, now));
    switch (t.status()) {
      case COMPLETED -> out.put("result", Json.parse(t.resultJson()));
      case FAILED -> out.put("error", Json.parse(t.errorJson()));
      case INPUT_REQUIRED -> out.put("inputRequests",
          t.inputRequestsJson() == null ? Map.of() : Json.parse(t.inputRequestsJson()));
      default -> { }
    }
    out.put("_meta", serverInfoMeta());
    return out;
  }

  /** The answer to {@code tasks/update} and {@code tasks/cancel}: complete, nothing else. */
  Map<String, Object> ack() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    result.put("_meta", serverInfoMeta());
    return result;
  }

  private Map<String, Object> serverInfoMeta() {
    return Map.of(Meta.SERVER_INFO, ((Map<?, ?>) Json.parse("{" + serverInfo + "}")).get(Meta.SERVER_INFO));
  }
}
