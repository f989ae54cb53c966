package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.core.task.TaskStatus;
import dev.mcpfusion.json.Json;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 2026-07-28 tasks across instances without affinity: a task runs on the instance that started
 * it, and a {@code tasks/cancel} or {@code tasks/update} that reaches another instance is handed
 * to its handler there through Redis. An answer no handler waits for is an error, not an
 * acknowledgement.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RoutedTaskTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));

  private final Jobs jobs = new Jobs();

  private Fleet fleet() {
    return new Fleet(REDIS.url(), 2, SETTINGS, options -> options, (redis, builder) ->
        builder.register(jobs).tasks(TaskOptions.defaults().store(redis.taskStore())));
  }

  private static Map<String, Object> meta() {
    return Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities", Map.of("elicitation", Map.of(),
            "extensions", Map.of("io.modelcontextprotocol/tasks", Map.of())));
  }

  /** Sends the 2026-07-28 request {@code method} to {@code instance}; its JSON-RPC response. */
  private static Map<String, Object> send(Fleet fleet, int instance, String method, String name,
      Map<String, Object> params) throws Exception {
    Map<String, Object> p = new LinkedHashMap<>(params);
    p.put("_meta", meta());
    HttpResponse<String> response = fleet.post(instance, Json.write(Map.of("jsonrpc", "2.0", "id", 5,
        "method", method, "params", p)), "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method,
        "Mcp-Name", name);
    String body = response.body();
    int data = body.indexOf("data: ");
    String json = body.startsWith("{") ? body : body.substring(data + 6, body.indexOf('\n', data));
    return map(Json.parse(json));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }

  private static String start(Fleet fleet, int instance, String tool) throws Exception {
    Map<String, Object> created = map(send(fleet, instance, "tools/call", tool,
        Map.of("name", tool, "arguments", Map.of())).get("result"));
    assertThat(created).containsEntry("resultType", "task");
    return (String) created.get("taskId");
  }

  private static Map<String, Object> task(Fleet fleet, int instance, String taskId) throws Exception {
    return map(send(fleet, instance, "tasks/get", taskId, Map.of("taskId", taskId)).get("result"));
  }

  /** Polls {@code tasks/get} on {@code instance} until the task has {@code status} (ten seconds at most). */
  private static Map<String, Object> poll(Fleet fleet, int instance, String taskId, String status) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Map<String, Object> task = task(fleet, instance, taskId);
    while (!status.equals(task.get("status")) && System.nanoTime() < end) {
      Thread.sleep(20);
      task = task(fleet, instance, taskId);
    }
    assertThat(task.get("status")).as(String.valueOf(task)).isEqualTo(status);
    return task;
  }

  private static String text(Map<String, Object> task) {
    Map<String, Object> result = map(task.get("result"));
    return (String) map(((java.util.List<?>) result.get("content")).get(0)).get("text");
  }

  @Test
  void aTaskCancelledThroughAnotherInstanceStopsItsHandlerOnItsRunner() throws Exception {
    try (Fleet fleet = fleet()) {
      String taskId = start(fleet, 0, "jobs_hold");
      assertThat(jobs.started.await(10, TimeUnit.SECONDS)).isTrue();

      Map<String, Object> ack = send(fleet, 1, "tasks/cancel", taskId, Map.of("taskId", taskId));

      assertThat(map(ack.get("result"))).as(String.valueOf(ack)).containsEntry("resultType", "complete");
      assertThat(jobs.stopped.await(10, TimeUnit.SECONDS)).as("the handler on A stopped").isTrue();
      assertThat(jobs.interrupted).isTrue();
      // Its late "interrupted" result is discarded on A: the task stays cancelled.
      assertThat(poll(fleet, 0, taskId, "cancelled")).doesNotContainKeys("result", "error");
      assertThat(task(fleet, 1, taskId)).containsEntry("status", "cancelled");
    }
  }

  @Test
  void aQuestionAskedOnOneInstanceIsAnsweredThroughAnother() throws Exception {
    try (Fleet fleet = fleet()) {
      String taskId = start(fleet, 0, "jobs_ask");
      Map<String, Object> questions = map(poll(fleet, 1, taskId, "input_required").get("inputRequests"));
      assertThat(questions).hasSize(1);
      String key = (String) questions.keySet().iterator().next();
      Map<String, Object> answer = Map.of(key, Map.of("action", "accept", "content", Map.of("name", "Ada")));

      Map<String, Object> ack = send(fleet, 1, "tasks/update", taskId, Map.of("taskId", taskId, "inputResponses", answer));

      assertThat(map(ack.get("result"))).as(String.valueOf(ack)).containsEntry("resultType", "complete");
      assertThat(text(poll(fleet, 1, taskId, "completed"))).isEqualTo("Hello, Ada!");
      // The same answer again: no longer outstanding, so ignored, as the extension says.
      Map<String, Object> again = send(fleet, 1, "tasks/update", taskId, Map.of("taskId", taskId, "inputResponses", answer));
      assertThat(map(again.get("result"))).containsEntry("resultType", "complete");
    }
  }

  @Test
  void anAnswerNoHandlerWaitsForIsAnErrorAndACancelOfItStillEndsTheTask() throws Exception {
    try (Fleet fleet = fleet(); FusionRedis silent = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      // Tasks that list a question no handler waits for: one of instance A (alive, no such
      // handler), one of an instance that holds its lease but hears nothing (no server runs it).
      for (FusionRedis runner : java.util.List.of(fleet.redis(0), silent)) {
        String taskId = "t-orphan-" + (runner == silent ? "silent" : "a");
        long now = System.currentTimeMillis();
        TaskRecord orphan = new TaskRecord(taskId, "", "jobs_ask", TaskStatus.INPUT_REQUIRED,
            "Waiting", now, now, 0, null, null,
            "{\"input-1\":{\"method\":\"elicitation/create\",\"params\":{}}}");
        assertThat(runner.taskStore().create(orphan, 10, now)).isTrue();
        Map<String, Object> answer =
            Map.of("input-1", Map.of("action", "accept", "content", Map.of("name", "Eve")));

        for (int instance = 0; instance < 2; instance++) {
          Map<String, Object> refused = send(fleet, instance, "tasks/update", taskId,
              Map.of("taskId", taskId, "inputResponses", answer));
          Map<String, Object> error = map(refused.get("error"));
          assertThat(((Number) error.get("code")).intValue()).as(String.valueOf(refused)).isEqualTo(-32602);
          assertThat((String) error.get("message")).isEqualTo("Invalid params: nothing waits for these"
              + " answers any more: the handler of task \"" + taskId + "\" runs on no live instance of"
              + " the server, or it stopped waiting (answered already, timed out, or the task moved"
              + " on); tasks/get tells where the task is.");
        }
        Map<String, Object> ack = send(fleet, 1, "tasks/cancel", taskId, Map.of("taskId", taskId));
        assertThat(map(ack.get("result"))).as(String.valueOf(ack)).containsEntry("resultType", "complete");
        assertThat(task(fleet, 0, taskId)).containsEntry("status", "cancelled");
      }
    }
  }
}
