package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.fixtures.CatalogTools;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

/**
 * Tool descriptions of routers fusion-processor generated (fusion-core's own description tests
 * run on hand-written stand-ins): the cache-control suffix of an immutable action in both
 * expositions, and {@code toonDescriptions(true)}, which turns a GROUPED tool's {@code Workflow:}
 * lines into one TOON table with the same facts and changes nothing else of the tool.
 */
class GeneratedDescriptionsTest {

  private static FusionServer.Builder server(Exposition exposition) {
    return BillingConnector.builder(InvoiceStore.sample(), exposition).register(new CatalogTools());
  }

  private static McpSchema.Tool tool(FusionServer server, String name) {
    return server.edge().tools().stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no tool " + name));
  }

  @Test
  void anImmutableActionSaysSoInItsFlatDescriptionAndItsWorkflowLine() {
    assertThat(tool(server(Exposition.FLAT).build(), "catalog_list_categories").description())
        .isEqualTo("List the product categories [Cache-Control: immutable]");
    assertThat(tool(server(Exposition.GROUPED).build(), "catalog").description()).isEqualTo("""
        The product catalog of a shop. Select operation via the `action` parameter. Actions: list_categories, archive_product, describe_product

        Workflow:
        - 'list_categories': List the product categories. Requires: shopId [Cache-Control: immutable]
        - 'archive_product': Archives one product. Requires: shopId, productId
        - 'describe_product': Describe a product or all of them. Requires: shopId""");
  }

  @Test
  void toonDescriptionsListTheActionsAsOneTable() {
    FusionServer toon = server(Exposition.GROUPED).toonDescriptions(true).build();
    assertThat(tool(toon, "catalog").description()).isEqualTo("""
        The product catalog of a shop. Select operation via the `action` parameter.

        actions[3|]{action|description|requires|notes}:
          list_categories|List the product categories|shopId|"Cache-Control: immutable"
          archive_product|Archives one product.|shopId, productId|""
          describe_product|Describe a product or all of them|shopId|\"\"""");
    assertThat(tool(toon, "billing").description()).startsWith("""
        Invoices: list, inspect and void them. Select operation via the `action` parameter.

        actions[""")
        .contains("\n  list_invoices|List invoices, newest first|\"\"|\"Cache-Control: no-store\"\n")
        .contains("\n  void_invoice|Void an open invoice|id|DESTRUCTIVE");
  }

  @Test
  void toonDescriptionsChangeOnlyTheDescription() {
    FusionServer text = server(Exposition.GROUPED).build();
    FusionServer toon = server(Exposition.GROUPED).toonDescriptions(true).build();
    for (McpSchema.Tool tool : text.edge().tools()) {
      McpSchema.Tool other = tool(toon, tool.name());
      assertThat(other.description()).isNotEqualTo(tool.description());
      assertThat(other.inputSchema()).isEqualTo(tool.inputSchema());
      assertThat(other.outputSchema()).isEqualTo(tool.outputSchema());
      assertThat(other.annotations()).isEqualTo(tool.annotations());
    }
    assertThat(server(Exposition.FLAT).toonDescriptions(true).build().edge().tools())
        .isEqualTo(server(Exposition.FLAT).build().edge().tools());
  }
}
