package dev.mcpfusion.framework.states;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tags narrow what a request sees — from code ({@code Builder.tags}), from the
 * {@code Mcp-Fusion-Tags} header, from the caller's scopes ({@code Builder.tagScope}) — and a tool
 * they hide is answered exactly as a tool that does not exist.
 */
class TagsTest {
  private static FusionServer.Builder builder() {
    return FusionServer.builder("shop", "1.0.0").register(new OrderTools())
        .register(new CatalogTools());
  }

  @Test
  void theHeaderShowsOnlyTheToolsCarryingOneOfItsTags() {
    try (FusionTester tester = FusionTester.of(builder()).header("Mcp-Fusion-Tags", "read")) {
      assertThat(StatesTest.names(tester)).containsExactly("orders_show", "catalog_search");
    }
    try (FusionTester tester = FusionTester.of(builder()).header("Mcp-Fusion-Tags", " admin, read ")) {
      assertThat(StatesTest.names(tester)).containsExactly("orders_show", "orders_cancel",
          "catalog_search", "catalog_purge");
    }
  }

  @Test
  void aToolItsTagsHideIsAnsweredAsAToolThatDoesNotExist() {
    try (FusionTester tester = FusionTester.of(builder()).header("Mcp-Fusion-Tags", "read")) {
      ToolResult hidden = tester.callTool("catalog_purge", Map.of());
      ToolResult unknown = tester.callTool("catalog_wipe", Map.of());
      assertThat(hidden.jsonRpcError().code()).isEqualTo(unknown.jsonRpcError().code());
      assertThat(hidden.errorText().replace("catalog_purge", "NAME"))
          .isEqualTo(unknown.errorText().replace("catalog_wipe", "NAME"));
      assertThat(hidden.jsonRpcError().data()).isEqualTo(unknown.jsonRpcError().data());
      assertThat(hidden.jsonRpcError().data()).isEqualTo(Map.of("code", "UNKNOWN_TOOL",
          "available", List.of("orders_show", "catalog_search")));
      assertThat(hidden.errorText()).doesNotContain("catalog_purge</tool>");
    }
  }

  @Test
  void theServersTagsAreNarrowedByTheHeaderNeverWidened() {
    try (FusionTester tester = FusionTester.of(builder().tags("read", "write"))) {
      assertThat(StatesTest.names(tester)).containsExactly("orders_show", "orders_pay",
          "orders_cancel", "catalog_search");
    }
    try (FusionTester tester = FusionTester.of(builder().tags("read", "write"))
        .header("Mcp-Fusion-Tags", "read")) {
      assertThat(StatesTest.names(tester)).containsExactly("orders_show", "catalog_search");
    }
    try (FusionTester tester = FusionTester.of(builder().tags("read"))
        .header("Mcp-Fusion-Tags", "admin")) {
      assertThat(StatesTest.names(tester)).isEmpty();
      assertThat(tester.callTool("catalog_purge", Map.of()).jsonRpcError().data())
          .isEqualTo(Map.of("code", "UNKNOWN_TOOL", "available", List.of()));
    }
  }

  @Test
  void aCallerSeesTheTagsItsScopesGrant() {
    FusionServer.Builder mapped = builder().tagScope("read", "shop:read")
        .tagScope("write", "shop:write").tagScope("admin", "shop:admin");
    try (FusionTester tester = FusionTester.of(mapped).scopes("shop:read")) {
      assertThat(StatesTest.names(tester)).containsExactly("orders_show", "catalog_search");
      assertThat(tester.callTool("orders_pay", Map.of("id", "A1")).jsonRpcError().data())
          .isEqualTo(Map.of("code", "UNKNOWN_TOOL", "available", List.of("orders_show",
              "catalog_search")));
    }
    FusionServer.Builder again = builder().tagScope("read", "shop:read")
        .tagScope("write", "shop:write").tagScope("admin", "shop:admin");
    try (FusionTester local = FusionTester.of(again)) {
      // A caller no authenticator vouched for (stdio, the tester's default) is not narrowed.
      assertThat(StatesTest.names(local)).hasSize(5);
    }
  }

  @Test
  void groupedToolsListAndAcceptOnlyTheTaggedActions() {
    try (FusionTester tester = FusionTester.of(builder().exposition(Exposition.GROUPED))
        .header("Mcp-Fusion-Tags", "read")) {
      assertThat(StatesTest.names(tester)).containsExactly("orders", "catalog");
      assertThat(StatesTest.actionEnum(tester.listTools().get(0))).containsExactly("show");
      ToolResult hidden = tester.call("orders", "cancel", Map.of("id", "A1"));
      assertThat(hidden.errorCode()).isEqualTo("UNKNOWN_ACTION");
      assertThat(hidden.actions()).containsExactly("orders (action: show)");
      assertThat(hidden.errorText()).doesNotContain("pay").doesNotContain("ship");
    }
    try (FusionTester tester = FusionTester.of(builder().exposition(Exposition.GROUPED))
        .header("Mcp-Fusion-Tags", "write")) {
      // No action of the catalog carries the tag: its tool is left out.
      assertThat(StatesTest.names(tester)).containsExactly("orders");
      assertThat(StatesTest.actionEnum(tester.listTools().get(0))).containsExactly("pay", "cancel");
    }
  }

  @Test
  void theStatelessEraFiltersByTagsToo() {
    try (FusionTester tester = FusionTester.of(builder()).protocolVersion(ProtocolVersions.MODERN)
        .header("Mcp-Fusion-Tags", "read")) {
      assertThat(StatesTest.names(tester)).containsExactly("orders_show", "catalog_search");
      assertThat(tester.callTool("catalog_purge", Map.of()).jsonRpcError().data())
          .isEqualTo(Map.of("code", "UNKNOWN_TOOL", "available", List.of("orders_show",
              "catalog_search")));
    }
  }
}
