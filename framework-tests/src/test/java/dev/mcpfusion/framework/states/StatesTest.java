package dev.mcpfusion.framework.states;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Workflow states as a client of the 2025 era sees them through the production edge (in memory):
 * the list shows what the session's state allows, a call outside its state is refused with an
 * envelope that names the state and the way there, a transition moves the session and tells the
 * client; the stateless 2026-07-28 era has no session and gates nothing.
 */
class StatesTest {
  static final String LIST_CHANGED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

  static FusionTester tester(Exposition exposition) {
    return FusionTester.of(FusionServer.builder("shop", "1.0.0")
        .register(new OrderTools()).register(new CatalogTools()).exposition(exposition));
  }

  static List<String> names(FusionTester tester) {
    return tester.listTools().stream().map(ToolInfo::name).toList();
  }

  @Test
  void theServerAdvertisesThatItsToolListChanges() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      assertThat(toolsCapability(tester)).isEqualTo(Map.of("listChanged", true));
    }
    try (FusionTester plain = FusionTester.of(new CatalogTools())) {
      assertThat(toolsCapability(plain)).isEqualTo(Map.of("listChanged", false));
    }
  }

  private static Object toolsCapability(FusionTester tester) {
    tester.listTools();
    String initialize = tester.rawMessages().stream().filter(m -> m.contains("\"capabilities\""))
        .findFirst().orElseThrow();
    Map<?, ?> result = (Map<?, ?>) ((Map<?, ?>) Json.parse(initialize)).get("result");
    return ((Map<?, ?>) result.get("capabilities")).get("tools");
  }

  @Test
  void theListShowsOnlyWhatTheSessionsStateAllows() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      assertThat(names(tester)).containsExactly("orders_show", "orders_pay", "orders_cancel",
          "catalog_search", "catalog_purge");
      assertThat(tester.call("orders", "pay", Map.of("id", "A1")).isSuccess()).isTrue();
      assertThat(names(tester)).containsExactly("orders_show", "orders_ship", "orders_cancel",
          "catalog_search", "catalog_purge");
      assertThat(tester.call("orders", "ship", Map.of("id", "A1")).isSuccess()).isTrue();
      assertThat(names(tester)).containsExactly("orders_show", "catalog_search", "catalog_purge");
    }
  }

  @Test
  void aCallOutsideItsStateNamesTheStateAndTheActionThatLeadsThere() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      ToolResult r = tester.call("orders", "ship", Map.of("id", "A1"));
      assertThat(r.isError()).isTrue();
      assertThat(r.errorCode()).isEqualTo("WRONG_STATE");
      assertThat(r.errorText()).isEqualTo("""
          <tool_error code="WRONG_STATE" severity="error">
          <message>[orders/ship] The workflow of orders is in the state "draft"; this action is \
          allowed only in "paid".</message>
          <recovery>Call orders_pay first: it moves the workflow to a state where this action is \
          allowed. Then call this action again if it is still needed.</recovery>
          <available_actions>
            <action>orders_pay</action>
          </available_actions>
          </tool_error>""");
      Map<?, ?> error = (Map<?, ?>) r.meta().get(ToolResult.META_ERROR);
      assertThat(error.get("state")).isEqualTo("draft");
      assertThat(error.get("allowedIn")).isEqualTo(List.of("paid"));
      assertThat(r.actions()).containsExactly("orders_pay");
    }
  }

  @Test
  void aStateNoActionLeadsBackFromSaysSo() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      tester.call("orders", "pay", Map.of("id", "A1"));
      tester.call("orders", "ship", Map.of("id", "A1"));
      ToolResult r = tester.call("orders", "cancel", Map.of("id", "A1"));
      assertThat(r.errorCode()).isEqualTo("WRONG_STATE");
      assertThat(r.errorText()).contains("is in the state \"shipped\"; this action is allowed only"
          + " in \"draft\", \"paid\".");
      // pay leads to paid, where cancel is allowed, but pay is not allowed in shipped either.
      assertThat(r.actions()).containsExactly("orders_pay");
    }
  }

  @Test
  void aTransitionSendsListChangedAfterItsResultAndAFailureMovesNothing() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      tester.listTools();
      int before = tester.rawMessages().size();
      ToolResult invalid = tester.call("orders", "pay", Map.of("id", ""));
      assertThat(invalid.isError()).isTrue();
      assertThat(tester.rawMessages().subList(before, tester.rawMessages().size()))
          .noneMatch(m -> m.contains("list_changed"));
      assertThat(names(tester)).contains("orders_pay").doesNotContain("orders_ship");

      int start = tester.rawMessages().size();
      assertThat(tester.call("orders", "pay", Map.of("id", "A1")).isSuccess()).isTrue();
      List<String> sent = awaitMessages(tester, start, 2);
      assertThat(sent).hasSize(2);
      assertThat(sent.get(0)).contains("\"result\"");
      assertThat(sent.get(1)).isEqualTo(LIST_CHANGED);

      // cancel has no transition: it moves nothing and sends nothing.
      int quiet = tester.rawMessages().size();
      assertThat(tester.call("orders", "cancel", Map.of("id", "A1")).isSuccess()).isTrue();
      assertThat(tester.rawMessages().subList(quiet, tester.rawMessages().size()))
          .noneMatch(m -> m.contains("list_changed"));
    }
  }

  /** The messages after the first {@code from}, once there are {@code count} of them (at most 5 s). */
  static List<String> awaitMessages(FusionTester tester, int from, int count) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (tester.rawMessages().size() < from + count && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return List.copyOf(tester.rawMessages().subList(from, tester.rawMessages().size()));
  }

  @Test
  void groupedListsOnlyTheAllowedActionsInTheEnumAndTheDescription() {
    try (FusionTester tester = tester(Exposition.GROUPED)) {
      ToolInfo orders = tester.listTools().get(0);
      assertThat(orders.name()).isEqualTo("orders");
      assertThat(actionEnum(orders)).containsExactly("show", "pay", "cancel");
      assertThat(orders.description()).contains("Actions: show, pay, cancel").doesNotContain("'ship'");
      ToolResult refused = tester.call("orders", "ship", Map.of("id", "A1"));
      assertThat(refused.errorCode()).isEqualTo("WRONG_STATE");
      assertThat(refused.actions()).containsExactly("orders (action: pay)");

      tester.call("orders", "pay", Map.of("id", "A1"));
      assertThat(actionEnum(tester.listTools().get(0))).containsExactly("show", "ship", "cancel");
      tester.call("orders", "ship", Map.of("id", "A1"));
      assertThat(actionEnum(tester.listTools().get(0))).containsExactly("show");
    }
  }

  @SuppressWarnings("unchecked")
  static List<Object> actionEnum(ToolInfo grouped) {
    Map<String, Object> properties = (Map<String, Object>) grouped.inputSchema().get("properties");
    return (List<Object>) ((Map<String, Object>) properties.get("action")).get("enum");
  }

  @Test
  void theStatelessEraHasNoSessionSoItListsAndAllowsEveryAction() {
    try (FusionTester tester = tester(Exposition.FLAT).protocolVersion(ProtocolVersions.MODERN)) {
      assertThat(names(tester)).containsExactly("orders_show", "orders_pay", "orders_ship",
          "orders_cancel", "catalog_search", "catalog_purge");
      assertThat(tester.call("orders", "ship", Map.of("id", "A1")).isSuccess()).isTrue();
      assertThat(tester.call("orders", "pay", Map.of("id", "A1")).isSuccess()).isTrue();
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("list_changed"));
    }
  }
}
