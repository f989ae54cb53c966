package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.samples.billing.fixtures.Reports.CountedView;
import dev.mcpfusion.samples.billing.fixtures.Reports.ReportTools;
import dev.mcpfusion.samples.billing.fixtures.Reports_ReportTools_Fusion;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code @Ui} blocks on the wire, exactly: one test per block type and one with all of them, in
 * FLAT and GROUPED exposition and in both protocol eras, through generated presenters and the
 * production edge; and how often item-level and collection-level methods run.
 */
class UiBlocksWireTest {
  private static final String SUMMARY = "<ui_passthrough type=\"summary\">\n"
      + "\uD83D\uDCCA **Summary**: \u26A0\uFE0F Dataset truncated. 3 shown, 2 hidden."
      + " Use filters to narrow results.\n</ui_passthrough>";
  private static final String CHART = "<ui_passthrough type=\"chart\" title=\"Revenue by region\">\n"
      + "{\"xAxis\":{\"type\":\"category\",\"data\":[\"north\",\"south\"]},\"yAxis\":{\"type\":\"value\"},"
      + "\"series\":[{\"type\":\"bar\",\"data\":[1700,800]}]}\n</ui_passthrough>";

  static Stream<Arguments> setups() {
    List<Arguments> out = new ArrayList<>();
    for (Exposition e : Exposition.values()) {
      for (String version : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
        out.add(Arguments.of(e, version));
      }
    }
    return out.stream();
  }

  private static ToolResult call(Exposition exposition, String version, String action) {
    try (FusionTester t = FusionTester.of(Reports_ReportTools_Fusion.bind(new ReportTools()))
        .exposition(exposition).protocolVersion(version)) {
      ToolResult r = t.call("reports", action, Map.of());
      assertThat(r).isSuccess();
      return r;
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void chartBlockFollowsTheTruncationSummary(Exposition exposition, String version) {
    ToolResult r = call(exposition, version, "list_charts");
    assertThat(r.blocks()).containsExactly(
        "[{\"id\":\"S-1\",\"region\":\"north\",\"cents\":1200},{\"id\":\"S-2\",\"region\":\"south\","
            + "\"cents\":800},{\"id\":\"S-3\",\"region\":\"north\",\"cents\":500}]",
        SUMMARY, CHART);
    // The chart is built from the shown items only (S-4 and S-5 are cut), and the tester reads it back.
    assertThat(r).isTruncated(3, 2).hasUiBlockContaining("chart", "[1700,800]");
    assertThat(r.uiBlocks().get(1).title()).isEqualTo("Revenue by region");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void mermaidBlocksComeOncePerDistinctView(Exposition exposition, String version) {
    ToolResult r = call(exposition, version, "list_diagrams");
    assertThat(r.blocks()).containsExactly(
        "[{\"id\":\"S-1\",\"status\":\"OPEN\"},{\"id\":\"S-2\",\"status\":\"PAID\"},"
            + "{\"id\":\"S-3\",\"status\":\"OPEN\"}]",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle of S-1\">\n"
            + "graph LR; OPEN-->PAID; OPEN-->VOID; S-1[\"S-1\"]-->OPEN\n</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle of S-2\">\n"
            + "graph LR; OPEN-->PAID; OPEN-->VOID; S-2[\"S-2\"]-->PAID\n</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle of S-3\">\n"
            + "graph LR; OPEN-->PAID; OPEN-->VOID; S-3[\"S-3\"]-->OPEN\n</ui_passthrough>");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void tableBlockIsAMarkdownTableOfTheShownRows(Exposition exposition, String version) {
    ToolResult r = call(exposition, version, "list_tables");
    assertThat(r.blocks()).hasSize(2);
    assertThat(r.blocks().get(1)).isEqualTo(
        "<ui_passthrough type=\"table\" title=\"Sales | shown\">\n"
            + "| Id | Region | Status |\n"
            + "| --- | --- | --- |\n"
            + "| S-1 | north | OPEN |\n"
            + "| S-2 | south | PAID |\n"
            + "| S-3 | north | OPEN |\n"
            + "| S-4 | east | VOID |\n"
            + "| S-5 | south | PAID |\n"
            + "</ui_passthrough>");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void markdownBlockIsEscapedText(Exposition exposition, String version) {
    ToolResult r = call(exposition, version, "list_markdown");
    assertThat(r.blocks()).hasSize(2);
    assertThat(r.blocks().get(1)).isEqualTo("<ui_passthrough type=\"markdown\" title=\"Total\">\n"
        + "**5 sales**, 2900 cents &lt;net>\n</ui_passthrough>");
    assertThat(r).hasUiBlocks(UiBlock.markdown("Total", "**5 sales**, 2900 cents <net>"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void everyBlockTogetherKeepsDeclarationOrderBetweenSummaryAndRules(Exposition exposition,
      String version) {
    ToolResult r = call(exposition, version, "list_all");
    String suggestion = exposition == Exposition.FLAT
        ? "- reports_list_tables: See the sales as a table\n"
        : "- reports (action: list_tables): See the sales as a table\n";
    assertThat(r.blocks()).containsExactly(
        "[{\"id\":\"S-1\",\"region\":\"north\",\"cents\":1200,\"status\":\"OPEN\"},"
            + "{\"id\":\"S-2\",\"region\":\"south\",\"cents\":800,\"status\":\"PAID\"},"
            + "{\"id\":\"S-3\",\"region\":\"north\",\"cents\":500,\"status\":\"OPEN\"}]",
        SUMMARY,
        "<ui_passthrough type=\"markdown\" title=\"Total\">\n**3 sales**, 2500 cents\n</ui_passthrough>",
        CHART,
        // Item-level: the two OPEN sales draw the same diagram, sent once.
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle\">\ngraph LR; OPEN-->OPEN\n</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle\">\ngraph LR; OPEN-->PAID\n</ui_passthrough>",
        "<ui_passthrough type=\"table\" title=\"Sales\">\n| Id | Cents |\n| --- | --- |\n"
            + "| S-1 | 1200 |\n| S-2 | 800 |\n| S-3 | 500 |\n</ui_passthrough>",
        "<domain_rules>\n- Amounts are in cents.\n- 2 regions are shown.\n</domain_rules>",
        "<action_suggestions>\n" + suggestion + "</action_suggestions>");
    assertThat(r.uiBlocks()).extracting(UiBlock::type)
        .containsExactly("summary", "markdown", "chart", "mermaid", "mermaid", "table");
    assertThat(r.rules()).containsExactly("Amounts are in cents.", "2 regions are shown.");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void aSingleResultRunsCollectionLevelMethodsOnItsOneView(Exposition exposition, String version) {
    ToolResult r = call(exposition, version, "get_sale");
    assertThat(r).hasUiBlocks(
        UiBlock.markdown("Total", "**1 sales**, 800 cents"),
        UiBlock.chart("Revenue by region", "{\"xAxis\":{\"type\":\"category\",\"data\":[\"south\"]},"
            + "\"yAxis\":{\"type\":\"value\"},\"series\":[{\"type\":\"bar\",\"data\":[800]}]}"),
        UiBlock.mermaid("Lifecycle", "graph LR; OPEN-->PAID"),
        UiBlock.table("Sales", List.of("Id", "Cents"), List.of(List.of("S-2", 800))));
    assertThat(r.rules()).containsExactly("Amounts are in cents.", "1 regions are shown.");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("setups")
  void aValueMaskedByAPathIsMaskedInEveryUiBlock(Exposition exposition, String version) {
    ToolResult r = call(exposition, version, "list_buyers");
    assertThat(r.dataText()).isEqualTo(
        "[{\"id\":\"B-1\",\"email\":\"[REDACTED]\"},{\"id\":\"B-2\",\"email\":\"[REDACTED]\"}]");
    assertThat(r.blocks().subList(1, r.blocks().size())).containsExactly(
        "<ui_passthrough type=\"table\" title=\"Buyers\">\n| Id | E-mail |\n| --- | --- |\n"
            + "| B-1 | [REDACTED] |\n| B-2 | [REDACTED] |\n</ui_passthrough>",
        "<ui_passthrough type=\"chart\" title=\"By buyer\">\n"
            + "{\"xAxis\":{\"data\":[\"[REDACTED]\",\"[REDACTED]\"]}}\n</ui_passthrough>",
        "<ui_passthrough type=\"markdown\" title=\"Write to [REDACTED]\">\n"
            + "Mail &lt;[REDACTED]> today\n</ui_passthrough>",
        "<ui_passthrough type=\"markdown\" title=\"Write to [REDACTED]\">\n"
            + "Mail &lt;[REDACTED]> today\n</ui_passthrough>");
    assertThat(r.raw()).doesNotContain("ada@", "example.com");
  }

  @Test
  void itemLevelMethodsRunOncePerDistinctViewOnAThousandRows() {
    CountedView.RULES.set(0);
    CountedView.SUGGEST.set(0);
    CountedView.UI.set(0);
    CountedView.LIST_RULES.set(0);
    ToolResult r = call(Exposition.FLAT, FusionTester.DEFAULT_VERSION, "thousand");

    assertThat(r.structuredContent().get("items")).asList().hasSize(1_000);
    // 1,000 rows, 3 distinct views: 3 calls of each item-level method, 1 of the collection-level one.
    assertThat(CountedView.RULES.get()).isEqualTo(3);
    assertThat(CountedView.SUGGEST.get()).isEqualTo(3);
    assertThat(CountedView.UI.get()).isEqualTo(3);
    assertThat(CountedView.LIST_RULES.get()).isEqualTo(1);
    assertThat(r.rules()).containsExactly("OPEN sales exist.", "PAID sales exist.",
        "VOID sales exist.", "1000 sales are shown.");
    assertThat(r.uiBlocks()).extracting(UiBlock::content)
        .containsExactly("`OPEN`", "`PAID`", "`VOID`");
    assertThat(r.suggestions()).hasSize(3);
  }
}
