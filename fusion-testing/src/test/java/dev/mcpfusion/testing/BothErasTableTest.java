package dev.mcpfusion.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.testing.fixtures.Billing.BillingTools;
import dev.mcpfusion.testing.fixtures.Billing.BillingTools_Fusion;
import dev.mcpfusion.testing.fixtures.Billing.Store;
import dev.mcpfusion.testing.fixtures.Billing.Tenant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every outcome of a {@code tools/call}, in both protocol eras, through the production edge: the
 * agent sees identical content, {@code structuredContent}, {@code isError} and {@code mcpfusion/*}
 * {@code _meta} (a JSON-RPC error, such as an unknown tool, identical code, message and data).
 */
class BothErasTableTest {
  /** One row: how to call, and what kind of outcome it must be (so a row cannot pass vacuously). */
  record Row(String name, Exposition exposition, String tool, Map<String, Object> arguments,
      String expect) {
    @Override
    public String toString() {
      return name + " (" + exposition + ")";
    }
  }

  private static Map<String, Object> args(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        new Row("success", Exposition.FLAT, "billing_get_invoice", args("id", "INV-0001"), "success"),
        new Row("success", Exposition.GROUPED, "billing", args("action", "get_invoice", "id", "INV-0001"), "success"),
        new Row("validation", Exposition.FLAT, "billing_get_invoice", args("id", 42, "extra", true), "VALIDATION"),
        new Row("validation", Exposition.GROUPED, "billing", args("action", "get_invoice"), "VALIDATION"),
        new Row("unknown tool", Exposition.FLAT, "billing_refund", args(), "jsonrpc:-32602"),
        new Row("unknown action", Exposition.GROUPED, "billing", args("action", "refund"), "UNKNOWN_ACTION"),
        new Row("thrown FusionError", Exposition.FLAT, "billing_get_invoice", args("id", "INV-9999"), "NOT_FOUND"),
        new Row("returned FusionError", Exposition.FLAT, "billing_get_invoice", args("id", "INV-0002"), "RATE_LIMITED"),
        new Row("unexpected exception", Exposition.FLAT, "billing_get_invoice", args("id", "INV-0003"), "INTERNAL_ERROR"),
        new Row("truncation", Exposition.FLAT, "billing_list_invoices", args(), "truncated"),
        new Row("invalidation", Exposition.FLAT, "billing_void_invoice", args("id", "INV-0001"), "invalidation"),
        new Row("invalidation", Exposition.GROUPED, "billing", args("action", "void_invoice", "id", "INV-0001"), "invalidation"))
        .map(Arguments::of);
  }

  private static FusionTester tester(Exposition exposition, String version) {
    return FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(5))))
        .exposition(exposition)
        .context(new Tenant("t_777"))
        .middleware((call, next) -> {
          Object id = call.arguments().get("id");
          if ("INV-0002".equals(id)) {
            return FusionError.of("RATE_LIMITED", "Too many calls.").recovery("Wait a minute, then retry.");
          }
          if ("INV-0003".equals(id)) {
            throw new IllegalStateException("database connection lost");
          }
          return next.proceed(call);
        })
        .protocolVersion(version);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void theAgentSeesTheSameInBothEras(Row row) {
    ToolResult classic;
    ToolResult modern;
    try (FusionTester c = tester(row.exposition(), "2025-11-25");
        FusionTester m = tester(row.exposition(), FusionTester.MODERN)) {
      classic = c.callTool(row.tool(), row.arguments());
      modern = m.callTool(row.tool(), row.arguments());
    }
    assertOutcome(row, classic);
    assertThat((modern.jsonRpcError() != null)).isEqualTo((classic.jsonRpcError() != null));
    if ((classic.jsonRpcError() != null)) {
      assertThat(modern.jsonRpcError()).isEqualTo(classic.jsonRpcError());
      return;
    }
    assertThat(same(modern.blocks())).isEqualTo(same(classic.blocks()));
    assertThat(modern.structuredContent()).isEqualTo(classic.structuredContent());
    assertThat(modern.isError()).isEqualTo(classic.isError());
    assertThat(same(fusionMeta(modern))).isEqualTo(same(fusionMeta(classic)));
  }

  private static void assertOutcome(Row row, ToolResult result) {
    switch (row.expect()) {
      case "success" -> assertThat(result.isError()).isFalse();
      case "truncated" -> assertThat(fusionMeta(result)).containsKey(ToolResult.META_TRUNCATION);
      case "invalidation" -> assertThat(fusionMeta(result)).containsKey(ToolResult.META_INVALIDATION);
      case "jsonrpc:-32602" -> {
        assertThat((result.jsonRpcError() != null)).isTrue();
        assertThat(result.jsonRpcError().code()).isEqualTo(-32602);
      }
      case "VALIDATION" -> assertThat(result.blocks().get(0)).startsWith("<validation_error");
      default -> {
        assertThat(result.isError()).isTrue();
        assertThat(result.errorCode()).isEqualTo(row.expect());
      }
    }
  }

  /** The JSON of {@code value} with each incident id (random per failure) replaced by a placeholder. */
  private static String same(Object value) {
    return Json.write(value).replaceAll("incident [0-9a-f]{12}", "incident <id>");
  }

  private static Map<String, Object> fusionMeta(ToolResult result) {
    Map<String, Object> meta = result.meta();
    Map<String, Object> ours = new LinkedHashMap<>();
    if (meta != null) {
      meta.forEach((k, v) -> {
        if (k.startsWith("mcpfusion/")) {
          ours.put(k, v);
        }
      });
    }
    return ours;
  }

  @org.junit.jupiter.api.Test
  void theTableCoversEveryOutcomeTheIssueNames() {
    assertThat(rows().map(a -> ((Row) a.get()[0]).name()).distinct().toList()).containsExactlyInAnyOrder(
        "success", "validation", "unknown tool", "unknown action", "thrown FusionError",
        "returned FusionError", "unexpected exception", "truncation", "invalidation");
    assertThat(List.of(Exposition.values())).allSatisfy(e -> assertThat(rows()
        .anyMatch(a -> ((Row) a.get()[0]).exposition() == e)).isTrue());
  }
}
