package dev.mcpfusion.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.samples.conformance.fixtures.TaskTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.ToolResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The tasks extension of the 2026-07-28 era, through the real edge: a {@code @TaskSupport} call
 * from a client that declares the extension starts a task, which is polled, fetched, answered,
 * cancelled, and expires; limits and the egress chain apply to it as to a direct call.
 */
class TasksTest {
  private static final String EXTENSION = "io.modelcontextprotocol/tasks";

  private final TaskTools tools = new TaskTools();

  private FusionTester tester(TaskOptions options) {
    FusionServer.Builder builder = FusionServer.builder("tasks", "1.0.0").register(tools)
        .tasks(options);
    return FusionTester.of(builder).protocolVersion(FusionTester.MODERN);
  }

  private FusionTester tester() {
    return tester(TaskOptions.defaults().pollInterval(Duration.ofMillis(50)));
  }

  /** A {@code _meta} declaring the tasks extension (and elicitation). */
  private static Map<String, Object> withTasks() {
    Map<String, Object> capabilities = new LinkedHashMap<>();
    capabilities.put("extensions", Map.of(EXTENSION, Map.of()));
    capabilities.put("elicitation", Map.of());
    return Map.of("io.modelcontextprotocol/clientCapabilities", capabilities);
  }

  private static String start(FusionTester tester, String tool, Map<String, ?> arguments) {
    ToolResult created = tester.callTool(tool, arguments, withTasks());
    assertThat(created.result()).containsEntry("resultType", "task").containsEntry("status", "working")
        .containsKeys("taskId", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs")
        .doesNotContainKeys("result", "error", "inputRequests", "content");
    return (String) created.result().get("taskId");
  }

  private static McpResponse tasks(FusionTester tester, String method, Map<String, ?> params) {
    Map<String, Object> p = new LinkedHashMap<>(params);
    p.put("_meta", withTasks());
    return tester.request(method, p);
  }

  private static Map<String, Object> get(FusionTester tester, String taskId) {
    McpResponse r = tasks(tester, "tasks/get", Map.of("taskId", taskId));
    assertThat(r.isError()).as(r.raw()).isFalse();
    return r.result();
  }

  /** Polls until {@code done} holds (five seconds at most). */
  private static Map<String, Object> poll(FusionTester tester, String taskId,
      Predicate<Map<String, Object>> done) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Map<String, Object> task = get(tester, taskId);
    while (!done.test(task) && System.nanoTime() < end) {
      Thread.sleep(20);
      task = get(tester, taskId);
    }
    return task;
  }

  private static Predicate<Map<String, Object>> status(String status) {
    return t -> status.equals(t.get("status"));
  }

  @SuppressWarnings("unchecked")
  private static String text(Map<String, Object> task) {
    Map<String, Object> result = (Map<String, Object>) task.get("result");
    return (String) ((List<Map<String, Object>>) result.get("content")).get(0).get("text");
  }

  @Test
  void aTaskIsStartedPolledAndItsResultFetched() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_hold", Map.of("label", "first"));
      // The handle is durable before it is answered: the first poll finds the task, working.
      Map<String, Object> working = get(tester, taskId);
      assertThat(working).containsEntry("resultType", "complete").containsEntry("taskId", taskId)
          .containsEntry("status", "working").doesNotContainKeys("result", "error");
      tools.release.countDown();
      Map<String, Object> done = poll(tester, taskId, status("completed"));
      assertThat(done).containsEntry("status", "completed").doesNotContainKey("error");
      assertThat(text(done)).isEqualTo("released first");
      assertThat((Map<String, Object>) done.get("result")).containsEntry("isError", false);
      // Fetched again: the result is kept, unchanged.
      assertThat(get(tester, taskId).get("result")).isEqualTo(done.get("result"));
    }
  }

  @Test
  void aCancelledTaskStopsItsHandlerAndStaysCancelled() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_hold", Map.of("label", "doomed"));
      // Cancel a handler that is running: one cancelled before it starts never runs at all.
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (tools.started.get() == 0 && System.nanoTime() < end) {
        Thread.sleep(5);
      }
      assertThat(tools.started.get()).isEqualTo(1);
      McpResponse ack = tasks(tester, "tasks/cancel", Map.of("taskId", taskId));
      assertThat(ack.result()).containsEntry("resultType", "complete")
          .doesNotContainKeys("taskId", "status", "result");
      assertThat(tools.stopped.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(tools.interrupted).isTrue();
      Map<String, Object> task = get(tester, taskId);
      // The handler's late "interrupted" result is discarded: the task stays cancelled.
      assertThat(task).containsEntry("status", "cancelled").doesNotContainKeys("result", "error");
      // Cancelling a finished task is acknowledged the same way and changes nothing.
      assertThat(tasks(tester, "tasks/cancel", Map.of("taskId", taskId)).result())
          .containsEntry("resultType", "complete");
      assertThat(get(tester, taskId)).containsEntry("status", "cancelled");
    }
  }

  @Test
  void aFinishedTasksResultExpiresAfterTheTtlWithAClearError() throws Exception {
    try (FusionTester tester = tester(TaskOptions.defaults().ttl(Duration.ofMillis(300)))) {
      tools.release.countDown();
      String taskId = start(tester, "jobs_hold", Map.of("label", "brief"));
      Map<String, Object> done = poll(tester, taskId, status("completed"));
      assertThat(done).containsEntry("status", "completed");
      Thread.sleep(400);
      McpResponse expired = tasks(tester, "tasks/get", Map.of("taskId", taskId));
      assertThat(expired.isError()).isTrue();
      assertThat(expired.errorCode()).isEqualTo(-32602);
      assertThat(expired.errorMessage()).contains("Task has expired").contains("300 ms");
    }
  }

  @Test
  void aDeadlineHitInsideATaskFinishesItWithTimeout() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_overrun", Map.of());
      Map<String, Object> done = poll(tester, taskId, status("completed"));
      assertThat(done).containsEntry("status", "completed");
      assertThat((Map<String, Object>) done.get("result")).containsEntry("isError", true);
      assertThat(text(done)).contains("code=\"TIMEOUT\"").contains("did not finish within 200 ms");
      // The handler was stopped at the deadline, as in a direct call.
      assertThat(tools.stopped.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(tools.interrupted).isTrue();
    }
  }

  @Test
  void aTaskRunsUnderItsActionsConcurrencyGate() throws Exception {
    try (FusionTester tester = tester()) {
      String first = start(tester, "jobs_gated", Map.of("label", "a"));
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (tools.started.get() == 0 && System.nanoTime() < end) {
        Thread.sleep(10);
      }
      String second = start(tester, "jobs_gated", Map.of("label", "b"));
      Map<String, Object> busy = poll(tester, second, status("completed"));
      assertThat((Map<String, Object>) busy.get("result")).containsEntry("isError", true);
      assertThat(text(busy)).contains("code=\"SERVER_BUSY\"");
      assertThat(tools.started.get()).isEqualTo(1);
      tools.release.countDown();
      assertThat(text(poll(tester, first, status("completed")))).isEqualTo("released a");
    }
  }

  @Test
  void theEgressCapAppliesToATasksResult() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_large", Map.of());
      Map<String, Object> done = poll(tester, taskId, status("completed"));
      assertThat(text(done)).contains("code=\"PAYLOAD_TOO_LARGE\"").doesNotContain("xxxxxxxxxx");
    }
  }

  @Test
  void anEgressFilterSeesATasksResult() throws Exception {
    FusionServer.Builder builder = FusionServer.builder("tasks", "1.0.0").register(tools)
        .egressFilter((out, ctx) -> out.veto("POLICY", "Not for this caller."));
    try (FusionTester tester = FusionTester.of(builder).protocolVersion(FusionTester.MODERN)) {
      tools.release.countDown();
      String taskId = start(tester, "jobs_hold", Map.of("label", "secret"));
      Map<String, Object> done = poll(tester, taskId, status("completed"));
      assertThat(text(done)).contains("POLICY").doesNotContain("released secret");
    }
  }

  @Test
  void anotherTenantCanNeitherReadNorCancelATask() throws Exception {
    TaskOptions scoped = TaskOptions.defaults()
        .scope(request -> String.valueOf(request.meta().get(TENANT)));
    try (FusionTester tester = tester(scoped)) {
      ToolResult created = tester.callTool("jobs_hold", Map.of("label", "acme's"), as("acme"));
      String taskId = (String) created.result().get("taskId");
      List<McpResponse> refused = List.of(
          tester.request("tasks/get", params(taskId, "globex")),
          tester.request("tasks/cancel", params(taskId, "globex")),
          tester.request("tasks/update", withAnswers(params(taskId, "globex"))));
      for (McpResponse r : refused) {
        assertThat(r.errorCode()).as(r.raw()).isEqualTo(-32602);
        // Told exactly what an unknown id is told: the task's existence does not leak.
        assertThat(r.errorMessage()).contains("Task not found");
      }
      McpResponse own = tester.request("tasks/get", params(taskId, "acme"));
      assertThat(own.result()).containsEntry("status", "working");
      tools.release.countDown();
      Map<String, Object> done = own.result();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (!"completed".equals(done.get("status")) && System.nanoTime() < end) {
        Thread.sleep(20);
        done = tester.request("tasks/get", params(taskId, "acme")).result();
      }
      assertThat(text(done)).isEqualTo("released acme's");
    }
  }

  private static final String TENANT = "example.com/tenant";

  private static Map<String, Object> as(String tenant) {
    Map<String, Object> meta = new LinkedHashMap<>(withTasks());
    meta.put(TENANT, tenant);
    return meta;
  }

  private static Map<String, Object> params(String taskId, String tenant) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("taskId", taskId);
    p.put("_meta", as(tenant));
    return p;
  }

  private static Map<String, Object> withAnswers(Map<String, Object> params) {
    params.put("inputResponses", Map.of());
    return params;
  }

  @Test
  void overTheBoundOnTasksACallIsRefusedClearly() throws Exception {
    try (FusionTester tester = tester(TaskOptions.defaults().maxTasks(1))) {
      start(tester, "jobs_hold", Map.of("label", "one"));
      ToolResult refused = tester.callTool("jobs_hold", Map.of("label", "two"), withTasks());
      assertThat(refused.isError()).isTrue();
      assertThat(refused.errorCode()).isEqualTo("SERVER_BUSY");
      assertThat(refused.errorText()).contains("1 tasks at most").contains("no task was started");
      assertThat(refused.result()).doesNotContainKey("taskId");
      tools.release.countDown();
    }
  }

  @Test
  void aTaskAsksTheClientAndResumesWithItsAnswer() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_ask", Map.of());
      Map<String, Object> waiting = poll(tester, taskId, status("input_required"));
      @SuppressWarnings("unchecked")
      Map<String, Map<String, Object>> questions =
          (Map<String, Map<String, Object>>) waiting.get("inputRequests");
      assertThat(questions).hasSize(1);
      String key = questions.keySet().iterator().next();
      assertThat(questions.get(key)).containsEntry("method", "elicitation/create");
      McpResponse ack = tasks(tester, "tasks/update", Map.of("taskId", taskId, "inputResponses",
          Map.of(key, Map.of("action", "accept", "content", Map.of("name", "Ada")),
              "never-asked", Map.of("action", "accept"))));
      assertThat(ack.result()).containsEntry("resultType", "complete");
      assertThat(text(poll(tester, taskId, status("completed")))).isEqualTo("Hello, Ada!");
    }
  }

  @Test
  void anInputFirstCallGathersItsAnswersWithInputRequiredResultsThenBecomesATask() throws Exception {
    try (FusionTester tester = tester()) {
      Map<String, Object> call = new LinkedHashMap<>();
      call.put("name", "jobs_greet_later");
      call.put("arguments", Map.of());
      call.put("_meta", withTasks());
      Map<String, Object> first = tester.request("tools/call", call).result();
      assertThat(first).containsEntry("resultType", "input_required").doesNotContainKey("taskId");
      @SuppressWarnings("unchecked")
      String key = ((Map<String, Object>) first.get("inputRequests")).keySet().iterator().next();

      Map<String, Object> retry = new LinkedHashMap<>(call);
      retry.put("inputResponses", Map.of(key, Map.of("action", "accept", "content", Map.of("name", "Alice"))));
      retry.put("requestState", first.get("requestState"));
      Map<String, Object> created = tester.request("tools/call", retry).result();
      assertThat(created).containsEntry("resultType", "task").containsEntry("status", "working")
          .containsKey("taskId").doesNotContainKeys("requestState", "inputRequests", "content");

      Map<String, Object> done = poll(tester, (String) created.get("taskId"), status("completed"));
      assertThat(done).containsEntry("status", "completed");
      assertThat(text(done)).isEqualTo("A task greets Alice");
    }
  }

  @Test
  void aQuestionAfterStartTaskEndsTheTaskWithAClearToolError() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_ask_late", Map.of());
      Map<String, Object> done = poll(tester, taskId, status("completed"));
      @SuppressWarnings("unchecked")
      Map<String, Object> result = (Map<String, Object>) done.get("result");
      assertThat(result).containsEntry("isError", true);
      assertThat(text(done)).contains("ASKED_AFTER_START").contains("before startTask()");
    }
  }

  @Test
  void withoutTheExtensionStartTaskDoesNothingAndTheCallAsksAsUsual() {
    try (FusionTester tester = tester()) {
      Map<String, Object> first = tester.request("tools/call", Map.of("name", "jobs_ask_late",
          "arguments", Map.of(), "_meta", Map.of("io.modelcontextprotocol/clientCapabilities",
              Map.of("elicitation", Map.of())))).result();
      assertThat(first).containsEntry("resultType", "input_required").doesNotContainKey("taskId");
    }
  }

  @Test
  void aCrashInsideATaskFailsItWithAnInternalErrorThatLeaksNothing() throws Exception {
    try (FusionTester tester = tester()) {
      String taskId = start(tester, "jobs_crash", Map.of());
      Map<String, Object> failed = poll(tester, taskId, status("failed"));
      assertThat(failed).doesNotContainKey("result");
      @SuppressWarnings("unchecked")
      Map<String, Object> error = (Map<String, Object>) failed.get("error");
      assertThat(error).containsEntry("code", -32603L);
      assertThat((String) error.get("message")).contains("incident")
          .doesNotContain("secret internal detail").doesNotContain("IllegalStateException");
    }
  }

  @Test
  void withoutTheExtensionAnOptionalActionRunsDirectlyAndARequiredOneIsRefused() {
    try (FusionTester tester = tester()) {
      tools.release.countDown();
      ToolResult direct = tester.callTool("jobs_hold", Map.of("label", "sync"));
      assertThat(direct.isSuccess()).isTrue();
      assertThat(direct.dataText()).isEqualTo("released sync");
      assertThat(direct.result()).containsEntry("resultType", "complete").doesNotContainKey("taskId");
      ToolResult required = tester.callTool("jobs_ask", Map.of());
      assertThat(required.jsonRpcError().code()).isEqualTo(-32021);
      assertThat(required.jsonRpcError().data()).isEqualTo(
          Map.of("requiredCapabilities", Map.of("extensions", Map.of(EXTENSION, Map.of()))));
      McpResponse get = tester.request("tasks/get", Map.of("taskId", "anything"));
      assertThat(get.errorCode()).isEqualTo(-32021);
      // An action without @TaskSupport never becomes a task, even for a client that declares it.
      assertThat(tester.callTool("jobs_direct", Map.of(), withTasks()).result())
          .containsEntry("resultType", "complete").doesNotContainKey("taskId");
    }
  }

  @Test
  void anUnknownTaskIsInvalidParams() {
    try (FusionTester tester = tester()) {
      McpResponse r = tasks(tester, "tasks/get", Map.of("taskId", "no-such-task"));
      assertThat(r.errorCode()).isEqualTo(-32602);
      assertThat(r.errorMessage()).contains("Task not found");
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void discoverAdvertisesTheExtension() {
    try (FusionTester tester = tester()) {
      Map<String, Object> capabilities =
          (Map<String, Object>) tester.request("server/discover", Map.of()).result().get("capabilities");
      assertThat((Map<String, Object>) capabilities.get("extensions")).containsKey(EXTENSION);
      assertThat(capabilities).doesNotContainKey("tasks");
    }
  }

  @Test
  void inThe2025EraATaskSupportActionIsCalledDirectly() {
    FusionServer.Builder builder = FusionServer.builder("tasks", "1.0.0").register(tools);
    try (FusionTester tester = FusionTester.of(builder).acceptElicitation(Map.of("name", "Ada"))) {
      tools.release.countDown();
      ToolResult direct = tester.callTool("jobs_hold", Map.of("label", "classic"), withTasks());
      assertThat(direct.isSuccess()).isTrue();
      assertThat(direct.dataText()).isEqualTo("released classic");
      assertThat(direct.result()).doesNotContainKeys("taskId", "resultType");
      // startTask() does nothing here: the handler asks over the session and answers directly.
      ToolResult asked = tester.callTool("jobs_ask_late", Map.of(), withTasks());
      assertThat(asked.dataText()).isEqualTo("task false, Ada");
      // No 2025-11-25 tasks capability: a client of that revision sends no task-augmented call.
      Map<?, ?> init = (Map<?, ?>) dev.mcpfusion.json.Json.parse(tester.rawMessages().get(0));
      Map<?, ?> capabilities = (Map<?, ?>) ((Map<?, ?>) init.get("result")).get("capabilities");
      assertThat(capabilities.containsKey("tools")).isTrue();
      assertThat(capabilities.containsKey("tasks")).isFalse();
    }
  }
}
