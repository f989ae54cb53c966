package ${package}.router;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static dev.mcpfusion.testing.FusionAssertions.assertThatTools;

import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.FusionTesterExtension;
import dev.mcpfusion.testing.ToolResult;
import ${package}.Connector;
import ${package}.store.TaskStore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The connector through the real MCP server, in memory: each test gets a fresh tester over a fresh
 * sample store, speaks MCP to it with the SDK's client, and reads what an agent would read.
 */
class TaskToolsTest {

  @RegisterExtension
  static final FusionTesterExtension fusion =
      FusionTesterExtension.of(() -> FusionTester.of(Connector.builder(TaskStore.sample())));

  @Test
  void agentSeesThreeToolsAndNoHiddenField(FusionTester tester) {
    assertThatTools(tester.listTools())
        .hasToolNames("tasks_list_tasks", "tasks_get_task", "tasks_complete_task")
        .doesNotMention("ownerEmail");
  }

  @Test
  void listShowsTheViewFieldsOnly(FusionTester tester) {
    ToolResult r = tester.call("tasks", "list_tasks", Map.of("state", "OPEN"));

    assertThat(r).isSuccess()
        .hasRuleContaining("by its ID")
        .hasNoField("ownerEmail");
    assertThat(r).data().isArray().hasSize(2);
    assertThat(r).data().hasValue("[0].id", "T-1");
  }

  @Test
  void completingAnOpenTaskInvalidatesTheList(FusionTester tester) {
    assertThat(tester.call("tasks", "complete_task", Map.of("id", "T-3")))
        .isSuccess()
        .invalidates("tasks.*");
    assertThat(tester.call("tasks", "get_task", Map.of("id", "T-3")))
        .data().hasValue("state", "DONE");
  }

  @Test
  void unknownTaskTellsTheAgentHowToRecover(FusionTester tester) {
    assertThat(tester.call("tasks", "get_task", Map.of("id", "T-99")))
        .isError()
        .hasCode("NOT_FOUND")
        // The recovery names the action as the agent calls it (FLAT: the tool's name).
        .hasRecovery("Call tasks_list_tasks first to find valid IDs.")
        .hasActions("tasks_list_tasks");
  }

  @Test
  void malformedIdIsRejectedBeforeTheHandlerRuns(FusionTester tester) {
    assertThat(tester.call("tasks", "get_task", Map.of("id", "task three")))
        .isError()
        .hasCode("VALIDATION_ERROR");
  }
}
