package dev.mcpfusion.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.presenter.ResultPresenter;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class UiBlockTest {
  record Row(String id, String note) {}

  @Test
  void chartIsTheOptionObjectAsCompactJsonInTheOrderWritten() {
    UiBlock chart = UiBlock.chart("Revenue",
        "{ \"xAxis\": {\"data\": [\"Jan\", \"Feb\"]},\n  \"series\": [{\"type\": \"bar\", \"data\": [1, 2.5]}] }");
    assertThat(chart).isEqualTo(new UiBlock("chart", "Revenue",
        "{\"xAxis\":{\"data\":[\"Jan\",\"Feb\"]},\"series\":[{\"type\":\"bar\",\"data\":[1,2.5]}]}"));
  }

  @Test
  void chartThatIsNotAJsonObjectIsRejectedWithTheReason() {
    assertThatThrownBy(() -> UiBlock.chart("Revenue", "[1, 2]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("UiBlock.chart(\"Revenue\") needs an ECharts option object as JSON"
            + " ({\"xAxis\": …, \"series\": […]}), but got a JSON array.");
    assertThatThrownBy(() -> UiBlock.chart("Revenue", "{\"series\": "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("UiBlock.chart(\"Revenue\") needs an ECharts option object as JSON,"
            + " but the text does not parse: Invalid JSON");
  }

  @Test
  void tableIsAMarkdownTableWhoseCellsCannotBreakIt() {
    UiBlock table = UiBlock.table("Invoices", List.of("Id", "Note"), List.of(
        List.of("INV-1", "a | b"),
        Arrays.asList("INV-2", null),
        List.of("INV-3", "two\r\nlines\nhere \\ there")));
    assertThat(table.type()).isEqualTo("table");
    assertThat(table.title()).isEqualTo("Invoices");
    assertThat(table.content()).isEqualTo(
        "| Id | Note |\n"
            + "| --- | --- |\n"
            + "| INV-1 | a \\| b |\n"
            + "| INV-2 |  |\n"
            + "| INV-3 | two lines here \\\\ there |");
  }

  @Test
  void tableFromRowsAndColumnsReadsEachCellThroughItsColumn() {
    UiBlock table = UiBlock.table("Rows", List.of(new Row("A", "x"), new Row("B", null)),
        UiBlock.column("Id", Row::id), UiBlock.column("Note", Row::note),
        UiBlock.column("Length", r -> r.id().length()));
    assertThat(table.content()).isEqualTo(
        "| Id | Note | Length |\n| --- | --- | --- |\n| A | x | 1 |\n| B |  | 1 |");
    assertThat(UiBlock.table("Empty", List.<Row>of(), UiBlock.column("Id", Row::id)).content())
        .isEqualTo("| Id |\n| --- |");
  }

  @Test
  void tableRowsMustFitTheColumns() {
    assertThatThrownBy(() -> UiBlock.table("T", List.of("a", "b"), List.of(List.of("1"))))
        .hasMessage("UiBlock.table(\"T\") row 0 has 1 cells, but there are 2 columns.");
    assertThatThrownBy(() -> UiBlock.table("T", List.of(), List.of()))
        .hasMessage("UiBlock.table(\"T\") needs at least one column.");
  }

  @Test
  void mermaidAndMarkdownKeepTheirTextAndNeedSome() {
    assertThat(UiBlock.mermaid("Flow", "graph LR; a-->b"))
        .isEqualTo(new UiBlock("mermaid", "Flow", "graph LR; a-->b"));
    assertThat(UiBlock.markdown("Notes", "**bold**"))
        .isEqualTo(new UiBlock("markdown", "Notes", "**bold**"));
    assertThatThrownBy(() -> UiBlock.mermaid("Flow", " "))
        .hasMessage("UiBlock.mermaid needs text; got a blank one.");
    assertThatThrownBy(() -> UiBlock.markdown(" ", "x"))
        .hasMessage("A UI block needs a title the user can read; got a blank one.");
  }

  @Test
  void renderedBlockEscapesTitleAsAnAttributeAndContentAsText() {
    assertThat(ResultPresenter.uiBlock(UiBlock.mermaid("A \"b\" <c> & 'd'", "a-->b & c<d")))
        .isEqualTo("<ui_passthrough type=\"mermaid\" title=\"A &quot;b&quot; &lt;c&gt; &amp;"
            + " &apos;d&apos;\">\na-->b &amp; c&lt;d\n</ui_passthrough>");
    assertThat(ResultPresenter.uiBlock(UiBlock.summary("x")))
        .isEqualTo("<ui_passthrough type=\"summary\">\nx\n</ui_passthrough>");
  }

  /** For any cell text, each line of the table is one row with exactly one cell per column. */
  @Property(tries = 300)
  void anyCellTextKeepsOneRowPerLineAndOneCellPerColumn(@ForAll String a, @ForAll String b) {
    String content = UiBlock.table("T", List.of("x", "y"), List.of(List.of(a, b))).content();
    String[] lines = content.split("\n", -1);
    assertThat(lines).hasSize(3);
    // Pipes that separate cells: not preceded by an odd run of backslashes.
    String row = lines[2].replace("\\\\", "").replace("\\|", "");
    assertThat(row.chars().filter(c -> c == '|').count()).isEqualTo(3);
  }
}
