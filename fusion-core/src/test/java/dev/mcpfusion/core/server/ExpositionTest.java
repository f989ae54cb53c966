package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.server.fixture.InvoiceView_Presenter;
import dev.mcpfusion.core.server.fixture.Outer;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.spi.Verb;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpositionTest {
  private static final String GROUPED_BILLING_DESCRIPTION = """
      Invoices: list, inspect and void them. Select operation via the `action` parameter. Actions: list_invoices, get_invoice, void_invoice

      Workflow:
      - 'list_invoices': List invoices, newest first [Cache-Control: no-store]
      - 'get_invoice': Get one invoice. Requires: id
      - 'void_invoice': Void an open invoice. Requires: id [DESTRUCTIVE]""";

  private final FusionServer flat = Servers.full(Exposition.FLAT);
  private final FusionServer grouped = Servers.full(Exposition.GROUPED);

  @Test
  void groupedBillingDescriptionEqualsTheDesignText() {
    assertThat(Servers.tool(grouped, "billing").description()).isEqualTo(GROUPED_BILLING_DESCRIPTION);
  }

  @Test
  void flatNamesAreRouterSeparatorAction() {
    assertThat(flat.edge().tools()).extracting(McpSchema.Tool::name).startsWith(
        "billing_list_invoices", "billing_get_invoice", "billing_void_invoice");
    FusionServer dashed = Servers.billing(Exposition.FLAT).separator("-").build();
    assertThat(dashed.edge().tools()).extracting(McpSchema.Tool::name).containsExactly(
        "billing-list_invoices", "billing-get_invoice", "billing-void_invoice");
    assertThat(grouped.edge().tools()).extracting(McpSchema.Tool::name)
        .containsExactly("billing", "projects", "probe");
  }

  @Test
  void flatDescriptionIsTheActionDescriptionWithItsCacheSuffix() {
    assertThat(Servers.tool(flat, "billing_list_invoices").description())
        .isEqualTo("List invoices, newest first [Cache-Control: no-store]");
    assertThat(Servers.tool(flat, "billing_get_invoice").description()).isEqualTo("Get one invoice");
    assertThat(Servers.tool(flat, "projects_list_projects").description())
        .isEqualTo("List the projects [Cache-Control: immutable]");
  }

  @Test
  void queryIsReadOnlyAndMutationDestructiveWithAllFourHintsExplicit() {
    McpSchema.ToolAnnotations query = Servers.tool(flat, "billing_get_invoice").annotations();
    assertThat(List.of(query.readOnlyHint(), query.destructiveHint(), query.idempotentHint(),
        query.openWorldHint())).containsExactly(true, false, false, false);
    McpSchema.ToolAnnotations mutation = Servers.tool(flat, "billing_void_invoice").annotations();
    assertThat(List.of(mutation.readOnlyHint(), mutation.destructiveHint(),
        mutation.idempotentHint(), mutation.openWorldHint())).containsExactly(false, true, false, false);
  }

  @Test
  void groupedHintsCombineTheActions() {
    McpSchema.ToolAnnotations billing = Servers.tool(grouped, "billing").annotations();
    assertThat(List.of(billing.readOnlyHint(), billing.destructiveHint(), billing.idempotentHint(),
        billing.openWorldHint())).containsExactly(false, true, false, false);
    McpSchema.ToolAnnotations nested = FusionServer.builder("n", "1").register(new Outer.Inner())
        .exposition(Exposition.GROUPED).build().edge().tools().get(0).annotations();
    assertThat(List.of(nested.readOnlyHint(), nested.destructiveHint(), nested.idempotentHint(),
        nested.openWorldHint())).containsExactly(true, false, true, false);
  }

  @Test
  void flatInputSchemaListsTheFieldsInOrder() {
    assertThat(Json.write(Servers.tool(flat, "billing_get_invoice").inputSchema())).isEqualTo(
        "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"minLength\":1,"
            + "\"pattern\":\"^(?:INV-\\\\d+)$\"}},\"required\":[\"id\"],\"additionalProperties\":false}");
    assertThat(Json.write(Servers.tool(flat, "projects_archive_project").inputSchema())).isEqualTo(
        "{\"type\":\"object\",\"properties\":{"
            + "\"workspaceId\":{\"type\":\"string\",\"minLength\":1,\"description\":\"Workspace identifier\"},"
            + "\"projectId\":{\"type\":\"string\",\"minLength\":1,\"description\":\"The project\"}},"
            + "\"required\":[\"workspaceId\",\"projectId\"],\"additionalProperties\":false}");
  }

  @Test
  void commonRequiredFieldIsInEveryRequiresLineAndOnceInTheSchema() {
    McpSchema.Tool projects = Servers.tool(grouped, "projects");
    assertThat(projects.description()).isEqualTo("""
        Projects of a workspace. Select operation via the `action` parameter. Actions: list_projects, archive_project, describe_project

        Workflow:
        - 'list_projects': List the projects. Requires: workspaceId [Cache-Control: immutable]
        - 'archive_project': Archives one project. Requires: workspaceId, projectId
        - 'describe_project': Describe a project or all of them. Requires: workspaceId""");
    List<String> workflow = projects.description().lines().filter(l -> l.startsWith("- '")).toList();
    assertThat(workflow).hasSize(3).allSatisfy(line -> assertThat(line).contains("Requires: workspaceId"));

    String schema = Json.write(projects.inputSchema());
    assertThat(schema).isEqualTo("{\"type\":\"object\",\"properties\":{"
        + "\"action\":{\"type\":\"string\",\"enum\":[\"list_projects\",\"archive_project\",\"describe_project\"],"
        + "\"description\":\"The operation to perform\"},"
        + "\"workspaceId\":{\"type\":\"string\",\"minLength\":1,\"description\":\"Workspace identifier (always required)\"},"
        + "\"projectId\":{\"type\":\"string\","
        + "\"description\":\"The project (Required for: archive_project. For: describe_project)\"}},"
        + "\"required\":[\"action\",\"workspaceId\"],\"additionalProperties\":false}");
    assertThat(schema.split("\"workspaceId\":", -1)).hasSize(2);
  }

  @Test
  void actionWithoutOwnDescriptionGetsNoRepeatedRouterSummary() {
    String line = Servers.tool(grouped, "projects").description().lines()
        .filter(l -> l.startsWith("- 'archive_project'")).findFirst().orElseThrow();
    assertThat(line).isEqualTo("- 'archive_project': Archives one project. Requires: workspaceId, projectId")
        .doesNotContain("Projects of a workspace");
    assertThat(Servers.tool(flat, "projects_archive_project").description())
        .isEqualTo("Archives one project.");
  }

  @Test
  void groupedPropertyNotesSayWhichActionsUseAField() {
    @SuppressWarnings("unchecked")
    Map<String, Object> properties =
        (Map<String, Object>) Servers.tool(grouped, "billing").inputSchema().get("properties");
    assertThat(properties).containsOnlyKeys("action", "status", "id");
    assertThat(((Map<?, ?>) properties.get("status")).get("description"))
        .isEqualTo("Only invoices in this status (For: list_invoices)");
    assertThat(((Map<?, ?>) properties.get("id")).get("description"))
        .isEqualTo("Required for: get_invoice, void_invoice");
    assertThat(Servers.tool(grouped, "billing").inputSchema().get("required")).isEqualTo(List.of("action"));
  }

  @Test
  void fieldsDeclaredDifferentlyKeepOnlyTheSharedKeywords() {
    assertThat(Json.write(((Map<?, ?>) Servers.tool(grouped, "billing").inputSchema()
        .get("properties")).get("id")))
        .isEqualTo("{\"type\":\"string\",\"minLength\":1,"
            + "\"description\":\"Required for: get_invoice, void_invoice\"}");
    FieldDescriptor text = new FieldDescriptor("v", "{\"type\":\"string\"}", true, "Value", false);
    FieldDescriptor number = new FieldDescriptor("v", "{\"type\":\"integer\"}", true, "Value", false);
    RouterDescriptor router = new RouterDescriptor("mixed", "", Object.class, List.of(),
        List.of(action("a", text), action("b", number)), List.of());
    assertThat(Json.write(Exposer.groupedTool(router).inputSchema().get("properties")))
        .contains("\"v\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}],"
            + "\"description\":\"Value\"}");
  }

  private static ActionDescriptor action(String name, FieldDescriptor field) {
    return new ActionDescriptor(name, name, "Does " + name, Verb.QUERY, true, false, false, false,
        List.of(field), List.of(), null, ResultShape.VALUE, ElementKind.NONE, "{\"type\":\"string\"}",
        CachePolicy.DEFAULT, List.of(), List.of(), List.of(), false);
  }

  @Test
  void workflowBlockNeedsTwoActions() {
    FusionServer server = FusionServer.builder("n", "1").register(new Outer.Inner())
        .exposition(Exposition.GROUPED).build();
    assertThat(server.edge().tools().get(0).description()).isEqualTo(
        "A nested router. Select operation via the `action` parameter. Actions: ping");
  }

  @Test
  void flatOutputSchemaOnlyForPresenterBackedActions() {
    assertThat(Json.write(Servers.tool(flat, "billing_get_invoice").outputSchema()))
        .isEqualTo(InvoiceView_Presenter.SCHEMA);
    assertThat(Json.write(Servers.tool(flat, "billing_list_invoices").outputSchema())).isEqualTo(
        "{\"type\":\"object\",\"properties\":{\"items\":{\"type\":\"array\",\"items\":"
            + InvoiceView_Presenter.SCHEMA + "},\"truncated\":{\"type\":\"object\",\"properties\":"
            + "{\"shown\":{\"type\":\"integer\"},\"hidden\":{\"type\":\"integer\"},\"more\":{\"type\":\"boolean\"}},"
            + "\"additionalProperties\":false}},\"required\":[\"items\"],\"additionalProperties\":false}");
    assertThat(Servers.tool(flat, "projects_list_projects").outputSchema()).isNull();
  }

  @Test
  void groupedOutputSchemaIsAnObjectWithDeduplicatedBranches() {
    Map<String, Object> output = Servers.tool(grouped, "billing").outputSchema();
    assertThat(output.get("type")).isEqualTo("object");
    assertThat(output).containsOnlyKeys("type", "anyOf");
    assertThat((List<?>) output.get("anyOf")).hasSize(2);
    assertThat(Json.write(((List<?>) output.get("anyOf")).get(1))).isEqualTo(InvoiceView_Presenter.SCHEMA);
    assertThat(Servers.tool(grouped, "projects").outputSchema()).isNull();
  }

  @Test
  void noSchemaCarriesDollarSchema() {
    for (McpSchema.Tool tool : grouped.edge().tools()) {
      assertThat(Json.write(tool.inputSchema())).doesNotContain("$schema");
      if (tool.outputSchema() != null) {
        assertThat(Json.write(tool.outputSchema())).doesNotContain("$schema");
      }
    }
  }
}
