package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.samples.billing.fixtures.WorkspaceTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code @Router(common = ...)}: declared once, required everywhere, described truthfully. */
class CommonFieldsTest {

  @Test
  @SuppressWarnings("unchecked")
  void commonFieldIsInEveryRequiresLineAndOnceInTheSchema() {
    try (FusionTester tester = FusionTester.of(new WorkspaceTools()).exposition(Exposition.GROUPED)) {
      ToolInfo tool = tester.listTools().get(0);

      assertThat(tool.description()).isEqualTo(
          "Projects of a workspace. Select operation via the `action` parameter."
              + " Actions: list_projects, archive_project\n"
              + "\n"
              + "Workflow:\n"
              + "- 'list_projects': List the projects. Requires: workspaceId\n"
              + "- 'archive_project': Archives one project. Requires: workspaceId, projectId");
      @SuppressWarnings("unchecked")
      Map<String, Object> properties = (Map<String, Object>) tool.inputSchema().get("properties");
      assertThat(properties).containsOnlyKeys("action", "workspaceId", "projectId");
      @SuppressWarnings("unchecked")
      Map<String, Object> workspace = (Map<String, Object>) properties.get("workspaceId");
      assertThat(workspace.get("description")).isEqualTo("Workspace identifier (always required)");
      assertThat((List<Object>) tool.inputSchema().get("required")).containsExactly("action", "workspaceId");
    }
  }

  @Test
  void validatorEnforcesTheCommonFieldTheDescriptionPromises() {
    try (FusionTester tester = FusionTester.of(new WorkspaceTools()).exposition(Exposition.GROUPED)) {
      ToolResult missing = tester.call("projects", "archive_project", Map.of("projectId", "P-1"));
      assertThat(missing).isError().hasCode("VALIDATION_ERROR");
      assertThat(missing.blocks().get(0)).contains("<field name=\"workspaceId\">is required. You sent: nothing.</field>");

      ToolResult ok = tester.call("projects", "archive_project", Map.of("workspaceId", "W-1", "projectId", "P-1"));
      assertThat(ok).isSuccess();
      assertThat(ok.dataText()).isEqualTo("archived P-1 in W-1");
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void flatToolsEachCarryTheCommonField() {
    try (FusionTester tester = FusionTester.of(new WorkspaceTools())) {
      for (ToolInfo tool : tester.listTools()) {
        assertThat((List<Object>) tool.inputSchema().get("required")).contains("workspaceId");
      }
    }
  }
}
