package dev.mcpfusion.core.edge;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wire shapes of the tasks extension, written from a stored {@link TaskRecord}: the
 * {@code CreateTaskResult} a started call answers, the {@code tasks/get} result, and the plain
 * acknowledgement of {@code tasks/update} and {@code tasks/cancel}; whether a request declares the
 * extension and the -32021 error when it does not; a task's parked questions.
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

  /** Whether the request's {@code _meta} declares the tasks extension among the client's capabilities. */
  static boolean declared(Map<?, ?> meta) {
    return meta != null && meta.get(Meta.CLIENT_CAPABILITIES) instanceof Map<?, ?> capabilities
        && capabilities.get("extensions") instanceof Map<?, ?> extensions
        && extensions.get(Meta.TASKS_EXTENSION) != null;
  }

  /** The -32021 error a client that did not declare the extension gets. */
  static byte[] missingExtension(Object id, String what) {
    return Bodies.error(id, JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing required client capability: " + what + " needs the " + Meta.TASKS_EXTENSION
            + " extension; declare it under extensions in io.modelcontextprotocol/clientCapabilities.",
        Map.of("requiredCapabilities", Map.of("extensions", Map.of(Meta.TASKS_EXTENSION, Map.of()))));
  }

  /** The questions {@code t} waits on, by key (a copy to change). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> questions(TaskRecord t) {
    return t.inputRequestsJson() == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>((Map<String, Object>) Json.parse(t.inputRequestsJson()));
  }
}
