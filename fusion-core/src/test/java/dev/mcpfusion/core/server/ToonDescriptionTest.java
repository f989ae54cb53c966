package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

/**
 * {@code toonDescriptions(true)}: a GROUPED tool lists its actions as one TOON table carrying the
 * facts of the {@code Workflow:} lines; everything else of the tool is what the text variant gives.
 * These routers are hand-written stand-ins for generated code; samples/billing's
 * {@code GeneratedDescriptionsTest} checks the same on code fusion-processor generated.
 */
class ToonDescriptionTest {
  private final FusionServer text = Servers.full(Exposition.GROUPED);
  private final FusionServer toon = Servers.billing(Exposition.GROUPED)
      .register(new dev.mcpfusion.core.server.fixture.WorkspaceTools())
      .register(new dev.mcpfusion.core.server.fixture.ProbeTools())
      .context(dev.mcpfusion.core.server.fixture.Recorder.class,
          request -> new dev.mcpfusion.core.server.fixture.Recorder())
      .middleware(new dev.mcpfusion.core.server.fixture.Trail("server"))
      .provide(new dev.mcpfusion.core.server.fixture.Trail.RouterTrail("router"),
          new dev.mcpfusion.core.server.fixture.Trail.MethodTrail("method"))
      .toonDescriptions(true)
      .build();

  @Test
  void billingDescriptionIsATable() {
    assertThat(Servers.tool(toon, "billing").description()).isEqualTo("""
        Invoices: list, inspect and void them. Select operation via the `action` parameter.

        actions[3|]{action|description|requires|notes}:
          list_invoices|List invoices, newest first|""|"Cache-Control: no-store"
          get_invoice|Get one invoice|id|""
          void_invoice|Void an open invoice|id|DESTRUCTIVE""");
  }

  @Test
  void severalRequiredFieldsShareACellAndCommasNeedNoQuotes() {
    assertThat(Servers.tool(toon, "projects").description()).isEqualTo("""
        Projects of a workspace. Select operation via the `action` parameter.

        actions[3|]{action|description|requires|notes}:
          list_projects|List the projects|workspaceId|"Cache-Control: immutable"
          archive_project|Archives one project.|workspaceId, projectId|""
          describe_project|Describe a project or all of them|workspaceId|\"\"""");
  }

  @Test
  void onlyTheDescriptionChanges() {
    for (McpSchema.Tool tool : text.edge().tools()) {
      McpSchema.Tool other = Servers.tool(toon, tool.name());
      assertThat(other.inputSchema()).isEqualTo(tool.inputSchema());
      assertThat(other.outputSchema()).isEqualTo(tool.outputSchema());
      assertThat(other.annotations()).isEqualTo(tool.annotations());
    }
  }

  @Test
  void flatDescriptionsAreUnchanged() {
    FusionServer flatToon = Servers.billing(Exposition.FLAT).toonDescriptions(true).build();
    FusionServer flatText = Servers.billing(Exposition.FLAT).build();
    assertThat(flatToon.edge().tools()).isEqualTo(flatText.edge().tools());
  }
}
