package dev.mcpfusion.core.presenter;

import static dev.mcpfusion.core.presenter.Fixtures.FLAT;
import static dev.mcpfusion.core.presenter.Fixtures.action;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.core.presenter.Fixtures.InvoicePresenter;
import dev.mcpfusion.core.presenter.Fixtures.InvoiceView;
import dev.mcpfusion.core.presenter.Fixtures.Status;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Where UI blocks go in a reply, and how often the binding's data-dependent parts are asked for. */
class UiBlocksPresenterTest {
  /** A binding like a generated one with {@code @Ui} methods and collection-level rules. */
  static final class UiPresenter extends InvoicePresenter {
    final List<Integer> shownSizes = new ArrayList<>();

    UiPresenter(int limit) {
      super(limit);
    }

    @Override
    public List<String> rulesFor(List<InvoiceView> shown) {
      List<String> out = new ArrayList<>(super.rulesFor(shown));
      out.add(shown.size() + " invoices shown.");
      return out;
    }

    @Override
    public List<UiBlock> uiBlocksFor(List<InvoiceView> shown) {
      shownSizes.add(shown.size());
      List<UiBlock> out = new ArrayList<>();
      out.add(UiBlock.table("Invoices", shown, UiBlock.column("Id", InvoiceView::id),
          UiBlock.column("Status", InvoiceView::status)));
      for (InvoiceView v : shown) {
        // Equal blocks (one per status) are sent once.
        out.add(UiBlock.mermaid("Lifecycle", "graph LR; OPEN-->" + v.status()));
      }
      return out;
    }
  }

  private static List<InvoiceView> views(int n) {
    return IntStream.rangeClosed(1, n).mapToObj(i -> new InvoiceView("INV-" + i, i,
        i % 2 == 0 ? Status.PAID : Status.OPEN)).toList();
  }

  @Test
  void truncatedCollectionSendsSummaryThenUiBlocksThenRulesThenSuggestions() {
    UiPresenter presenter = new UiPresenter(3);
    Reply reply = ResultPresenter.present(
        action(ResultShape.COLLECTION, ElementKind.VIEW, presenter), views(5), FLAT);

    assertThat(reply.blocks()).containsExactly(
        "[{\"id\":\"INV-1\",\"totalCents\":1,\"status\":\"OPEN\"},"
            + "{\"id\":\"INV-2\",\"totalCents\":2,\"status\":\"PAID\"},"
            + "{\"id\":\"INV-3\",\"totalCents\":3,\"status\":\"OPEN\"}]",
        "<ui_passthrough type=\"summary\">\n\uD83D\uDCCA **Summary**: \u26A0\uFE0F Dataset"
            + " truncated. 3 shown, 2 hidden. Use filters to narrow results.\n</ui_passthrough>",
        "<ui_passthrough type=\"table\" title=\"Invoices\">\n"
            + "| Id | Status |\n| --- | --- |\n| INV-1 | OPEN |\n| INV-2 | PAID |\n| INV-3 | OPEN |\n"
            + "</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle\">\ngraph LR; OPEN-->OPEN\n"
            + "</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle\">\ngraph LR; OPEN-->PAID\n"
            + "</ui_passthrough>",
        "<domain_rules>\n"
            + "- totalCents: Total in integer cents\n"
            + "- Money is in integer cents.\n"
            + "- Paid invoices cannot be voided.\n"
            + "- 3 invoices shown.\n"
            + "</domain_rules>",
        "<action_suggestions>\n"
            + "- billing_void_invoice {\"id\":\"INV-1\"}: Open invoices can be voided\n"
            + "- billing_list_invoices: See the other invoices\n"
            + "- billing_void_invoice {\"id\":\"INV-3\"}: Open invoices can be voided\n"
            + "</action_suggestions>");
    // Asked once per answer, with the shown items only.
    assertThat(presenter.shownSizes).containsExactly(3);
  }

  @Test
  void singleItemSendsItsUiBlocksAfterTheData() {
    Reply reply = ResultPresenter.present(
        action(ResultShape.SINGLE, ElementKind.VIEW, new UiPresenter(50)),
        new InvoiceView("INV-9", 9, Status.PAID), FLAT);
    assertThat(reply.blocks().subList(1, 3)).containsExactly(
        "<ui_passthrough type=\"table\" title=\"Invoices\">\n"
            + "| Id | Status |\n| --- | --- |\n| INV-9 | PAID |\n</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"Lifecycle\">\ngraph LR; OPEN-->PAID\n"
            + "</ui_passthrough>");
  }

  @Test
  void theShownListCannotBeChangedByAUserMethod() {
    InvoicePresenter sorting = new InvoicePresenter(50) {
      @Override
      public List<UiBlock> uiBlocksFor(List<InvoiceView> shown) {
        shown.clear();
        return List.of();
      }
    };
    assertThatThrownBy(() -> ResultPresenter.present(
        action(ResultShape.COLLECTION, ElementKind.VIEW, sorting), views(2), FLAT))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aBindingWithoutTheNewMethodsAsksOncePerDistinctView() {
    AtomicInteger rules = new AtomicInteger();
    AtomicInteger suggestions = new AtomicInteger();
    InvoicePresenter counting = new InvoicePresenter(2_000) {
      @Override
      public List<String> dynamicRules(InvoiceView view) {
        rules.incrementAndGet();
        return super.dynamicRules(view);
      }

      @Override
      public List<Suggestion> suggestions(InvoiceView view) {
        suggestions.incrementAndGet();
        return super.suggestions(view);
      }
    };
    // 1,000 rows, 3 distinct views.
    List<InvoiceView> rows = IntStream.range(0, 1_000).mapToObj(i -> new InvoiceView("INV-" + i % 3,
        i % 3, i % 3 == 1 ? Status.PAID : Status.OPEN)).toList();
    Reply reply = ResultPresenter.present(
        action(ResultShape.COLLECTION, ElementKind.VIEW, counting), rows, FLAT);
    assertThat(reply.items()).isEqualTo(1_000);
    assertThat(rules.get()).isEqualTo(3);
    assertThat(suggestions.get()).isEqualTo(3);
  }
}
