package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.fixtures.LedgerTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code @Presenter(format = TOON)} on the wire, FLAT and GROUPED, in both protocol eras: the data
 * block is the TOON table, structuredContent stays JSON, the other blocks are unchanged.
 */
class ToonWireTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(Exposition.FLAT, FusionTester.DEFAULT_VERSION),
        Arguments.of(Exposition.FLAT, FusionTester.MODERN),
        Arguments.of(Exposition.GROUPED, FusionTester.DEFAULT_VERSION),
        Arguments.of(Exposition.GROUPED, FusionTester.MODERN));
  }

  static FusionTester tester(Exposition exposition, String era) {
    return FusionTester.of(FusionServer.builder("ledger", "1").register(new LedgerTools())
        .exposition(exposition)).protocolVersion(era);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aTruncatedCollectionIsATableFollowedByTheUsualBlocks(Exposition exposition, String era) {
    try (FusionTester tester = tester(exposition, era)) {
      ToolResult r = tester.call("ledger", "list_entries", Map.of());
      String reverse = exposition == Exposition.FLAT
          ? "ledger_reverse_entry" : "ledger (action: reverse_entry)";
      assertThat(r.isSuccess()).isTrue();
      assertThat(r.blocks()).containsExactly(
          "[3]{id,amountCents,memo}:\n"
              + "  E-1,1200,\"Rent, March\"\n"
              + "  E-2,-300,Refund\n"
              + "  E-3,4500,Consulting",
          "<ui_passthrough type=\"summary\">\n\uD83D\uDCCA **Summary**: \u26A0\uFE0F Dataset"
              + " truncated. 3 shown, 1 hidden. Use filters to narrow results.\n</ui_passthrough>",
          "<domain_rules>\n- Amounts are in integer cents.\n</domain_rules>",
          "<action_suggestions>\n- " + reverse + ": Negative entries can be reversed\n"
              + "</action_suggestions>");
      assertThat(r.structuredContent()).isEqualTo(Map.of(
          "items", List.of(
              Map.of("id", "E-1", "amountCents", 1200, "memo", "Rent, March"),
              Map.of("id", "E-2", "amountCents", -300, "memo", "Refund"),
              Map.of("id", "E-3", "amountCents", 4500, "memo", "Consulting")),
          "truncated", Map.of("shown", 3, "hidden", 1)));
      assertThat(r.raw()).doesNotContain("ACME");
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aSingleItemStaysJson(Exposition exposition, String era) {
    try (FusionTester tester = tester(exposition, era)) {
      ToolResult r = tester.call("ledger", "reverse_entry", Map.of("id", "E-2"));
      assertThat(r.isSuccess()).isTrue();
      assertThat(r.dataText()).isEqualTo("{\"id\":\"E-2-R\",\"amountCents\":300,"
          + "\"memo\":\"Reversal of E-2\"}");
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void redactionRewritesTheTable(Exposition exposition, String era) {
    try (FusionTester tester = tester(exposition, era)) {
      ToolResult r = tester.call("ledger", "list_payees", Map.of());
      // TOON quotes a value that starts like an array header.
      assertThat(r.blocks()).containsExactly("[4]{id,payee}:\n"
          + "  E-1,\"[REDACTED]\"\n"
          + "  E-2,\"[REDACTED]\"\n"
          + "  E-3,\"[REDACTED]\"\n"
          + "  E-4,\"[REDACTED]\"");
      assertThat(r.raw()).doesNotContain("ACME", "Carol");
    }
  }
}
