package dev.mcpfusion.core.presenter;

import static dev.mcpfusion.core.presenter.Fixtures.FLAT;
import static dev.mcpfusion.core.presenter.Fixtures.action;
import static dev.mcpfusion.core.presenter.Fixtures.invoice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.core.guard.EgressCap;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.presenter.Fixtures.Invoice;
import dev.mcpfusion.core.presenter.Fixtures.InvoicePresenter;
import dev.mcpfusion.core.presenter.Fixtures.InvoiceView;
import dev.mcpfusion.core.presenter.Fixtures.Status;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code @Presenter(format = TOON)}: a collection's data block is a TOON table, everything else of
 * the reply (structuredContent, the blocks after the data, a single item) is what JSON gives.
 */
class ToonDataBlockTest {
  /** The binding a generated presenter of a TOON view is: the same, plus {@code format()}. */
  static class ToonPresenter extends InvoicePresenter {
    ToonPresenter(int limit) {
      super(limit);
    }

    @Override public Format format() {
      return Format.TOON;
    }

    @Override public void appendJson(InvoiceView view, StringBuilder out) {
      throw new AssertionError("a TOON collection is not written as JSON");
    }
  }

  static Reply present(Object result, int limit) {
    return ResultPresenter.present(
        action(ResultShape.COLLECTION, ElementKind.MODEL, new ToonPresenter(limit)), result, FLAT);
  }

  @Test
  void collectionDataBlockIsATable() {
    Reply reply = present(List.of(invoice(1), invoice(2), invoice(3)), 50);
    assertThat(reply.blocks()).containsExactly(
        "[3]{id,totalCents,status}:\n"
            + "  INV-0001,100,OPEN\n"
            + "  INV-0002,200,PAID\n"
            + "  INV-0003,300,OPEN",
        "<domain_rules>\n- totalCents: Total in integer cents\n- Money is in integer cents.\n"
            + "- Paid invoices cannot be voided.\n</domain_rules>",
        "<action_suggestions>\n- billing_void_invoice {\"id\":\"INV-0001\"}: Open invoices can be"
            + " voided\n- billing_list_invoices: See the other invoices\n- billing_void_invoice"
            + " {\"id\":\"INV-0003\"}: Open invoices can be voided\n</action_suggestions>");
    assertThat(reply.toonData()).isTrue();
    assertThat(reply.items()).isEqualTo(3);
    // structuredContent stays JSON: the same trees a JSON presenter sends.
    assertThat(Json.write(reply.structuredContent())).isEqualTo("{\"items\":["
        + "{\"id\":\"INV-0001\",\"totalCents\":100,\"status\":\"OPEN\"},"
        + "{\"id\":\"INV-0002\",\"totalCents\":200,\"status\":\"PAID\"},"
        + "{\"id\":\"INV-0003\",\"totalCents\":300,\"status\":\"OPEN\"}]}");
  }

  @Test
  void truncatedTableShowsTheShownRowsThenTheSummary() {
    List<Invoice> ten = IntStream.rangeClosed(1, 10).mapToObj(Fixtures::invoice).toList();
    Reply reply = present(ten, 2);
    assertThat(reply.blocks().subList(0, 2)).containsExactly(
        "[2]{id,totalCents,status}:\n  INV-0001,100,OPEN\n  INV-0002,200,PAID",
        "<ui_passthrough type=\"summary\">\n\uD83D\uDCCA **Summary**: \u26A0\uFE0F Dataset"
            + " truncated. 2 shown, 8 hidden. Use filters to narrow results.\n</ui_passthrough>");
    assertThat(reply.structuredContent().get("truncated")).isEqualTo(Map.of("shown", 2, "hidden", 8L));
  }

  @Test
  void valuesTheTableCannotShowBareAreQuotedAndNullIsWritten() {
    Reply reply = present(List.of(new Invoice("A,B", 1, null, "s"), new Invoice("42", 2,
        Status.OPEN, "s"), new Invoice("say \"hi\"", 3, Status.PAID, "s")), 50);
    assertThat(reply.blocks().get(0)).isEqualTo("[3]{id,totalCents,status}:\n"
        + "  \"A,B\",1,null\n"
        + "  \"42\",2,OPEN\n"
        + "  \"say \\\"hi\\\"\",3,PAID");
  }

  @Test
  void emptyCollectionIsAnEmptyTable() {
    assertThat(present(List.of(), 50).blocks()).containsExactly("[0]:",
        "<domain_rules>\n- totalCents: Total in integer cents\n- Money is in integer cents.\n"
            + "</domain_rules>");
  }

  @Test
  void aSingleItemStaysJson() {
    ToonPresenter toon = new ToonPresenter(50) {
      @Override public void appendJson(InvoiceView view, StringBuilder out) {
        out.append(Json.write(toTree(view)));
      }
    };
    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE, ElementKind.MODEL, toon),
        invoice(7), FLAT);
    assertThat(reply.blocks().get(0))
        .isEqualTo("{\"id\":\"INV-0007\",\"totalCents\":700,\"status\":\"OPEN\"}");
    assertThat(reply.toonData()).isFalse();
  }

  @Test
  void theByteCapDropsRowsAndRewritesTheTableHeader() {
    List<Invoice> items = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      items.add(invoice(i));
    }
    ToonPresenter quiet = new ToonPresenter(50) {
      @Override public List<dev.mcpfusion.core.Suggestion> suggestions(InvoiceView view) {
        return List.of();
      }
    };
    Reply reply = ResultPresenter.present(
        action(ResultShape.COLLECTION, ElementKind.MODEL, quiet), items, FLAT);
    Reply fitted = EgressCap.fit(reply, 1500, "billing", "list_invoices", UnaryOperator.identity());
    assertThat(fitted.isError()).as("%s", fitted).isFalse();
    int k = fitted.items();
    assertThat(k).isBetween(1, 39);
    StringBuilder expected = new StringBuilder("[" + k + "]{id,totalCents,status}:");
    for (int i = 1; i <= k; i++) {
      expected.append(String.format("\n  INV-%04d,%d,%s", i, i * 100, i % 2 == 0 ? "PAID" : "OPEN"));
    }
    assertThat(fitted.blocks().get(0)).isEqualTo(expected.toString());
    assertThat(fitted.toonData()).isTrue();
    assertThat(fitted.blocks().get(1)).contains(k + " shown, " + (40 - k) + " withheld");
    assertThat((List<?>) fitted.structuredContent().get("items")).hasSize(k);
  }

  @Test
  void itemsBlockWritesTheReplysFormat() {
    Reply toon = present(List.of(invoice(1)), 50);
    List<Object> rows = List.of(Map.of("id", "X"));
    assertThat(toon.itemsBlock(rows)).isEqualTo("[1]{id}:\n  X");
    assertThat(new Reply(List.of("[]"), Map.of(), Map.of(), false).itemsBlock(rows))
        .isEqualTo("[{\"id\":\"X\"}]");
  }
}
