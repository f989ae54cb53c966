package dev.mcpfusion.core.presenter;

import static dev.mcpfusion.core.presenter.Fixtures.FLAT;
import static dev.mcpfusion.core.presenter.Fixtures.action;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Page;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.presenter.Fixtures.Invoice;
import dev.mcpfusion.core.presenter.Fixtures.InvoicePresenter;
import dev.mcpfusion.core.presenter.Fixtures.Status;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Reply;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The byte cap bounds a presented reply from {@link Reply#structuredChars} and
 * {@link Reply#textChars} instead of walking it, and redaction passes a reply by
 * {@link Reply#onlyStaticRules} without looking at its blocks, so each must be exactly what the
 * reply holds: for any text in the data (escapes, non-ASCII, surrogate pairs), for single items,
 * collections cut by {@code agentLimit} and pages, with and without suggestions, dynamic rules and
 * UI blocks.
 */
class StructuredCharsPropertiesTest {
  @Provide
  Arbitrary<List<String>> ids() {
    return Arbitraries.strings().all().ofMaxLength(40).list().ofMinSize(0).ofMaxSize(30);
  }

  @Property(tries = 300)
  void theKnownLengthIsTheTreesJsonText(@ForAll("ids") List<String> ids,
      @ForAll @IntRange(min = 0, max = 40) int limit, @ForAll @IntRange(min = 0, max = 3) int kind) {
    List<Invoice> invoices = new java.util.ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      invoices.add(new Invoice(ids.get(i), i * 1_000_003L, Status.values()[i % Status.values().length], "s"));
    }
    // With suggestions and dynamic rules; with neither (only the static rules follow the data);
    // with UI blocks and collection-level rules; with UI blocks and the static rules alone.
    InvoicePresenter presenter = switch (kind) {
      case 0 -> new InvoicePresenter(limit);
      case 1 -> new QuietPresenter(limit);
      case 2 -> new UiBlocksPresenterTest.UiPresenter(limit);
      default -> new QuietPresenter(limit) {
        @Override
        public List<dev.mcpfusion.core.UiBlock> uiBlocksFor(List<Fixtures.InvoiceView> shown) {
          return List.of(dev.mcpfusion.core.UiBlock.table("Invoices", shown,
              dev.mcpfusion.core.UiBlock.column("Id", Fixtures.InvoiceView::id)));
        }
      };
    };
    Reply many = ResultPresenter.present(action(ResultShape.COLLECTION, ElementKind.MODEL, presenter),
        invoices, FLAT);
    check(many);
    // A page: the next cursor (the handler's, or one resuming after agentLimit) is in the tree too.
    check(ResultPresenter.present(action(ResultShape.PAGE, ElementKind.MODEL, presenter),
        ids.size() % 2 == 0 ? Page.of(invoices, "next-" + ids.size()) : Page.last(invoices), FLAT));
    if (!invoices.isEmpty()) {
      check(ResultPresenter.present(action(ResultShape.SINGLE, ElementKind.MODEL, presenter),
          invoices.get(0), FLAT));
    }
  }

  /** Static rules only: no dynamic rule, no suggestion, no UI block. */
  static class QuietPresenter extends InvoicePresenter {
    QuietPresenter(int limit) {
      super(limit);
    }

    @Override
    public List<String> dynamicRules(Fixtures.InvoiceView view) {
      return List.of();
    }

    @Override
    public List<dev.mcpfusion.core.Suggestion> suggestions(Fixtures.InvoiceView view) {
      return List.of();
    }
  }

  private static void check(Reply reply) {
    String json = Json.write(reply.structuredContent());
    assertThat(reply.structuredChars()).isEqualTo(json.length());
    assertThat(reply.textChars())
        .isEqualTo(reply.blocks().stream().mapToInt(String::length).sum());
    boolean rulesBlockOnly = reply.blocks().size() == (reply.meta().isEmpty() ? 1 : 2)
        && (reply.meta().isEmpty() || reply.meta().keySet().equals(java.util.Set.of("mcpfusion/rules"))
            && reply.blocks().get(1).startsWith("<domain_rules>"));
    assertThat(reply.onlyStaticRules()).isEqualTo(reply.staticMeta() && rulesBlockOnly);
    if (reply.onlyStaticRules()) {
      assertThat(reply.meta().get("mcpfusion/rules") == null
          || reply.meta().get("mcpfusion/rules").equals(new QuietPresenter(0).staticRules())).isTrue();
    }
    // The _meta length is known when it holds the static rules alone (here: an empty result).
    if (reply.metaChars() >= 0) {
      assertThat(reply.metaChars()).isEqualTo(Json.write(reply.meta()).length());
    }
    // What the cap relies on: three bytes of UTF-8 per UTF-16 unit at most.
    assertThat(json.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(3 * json.length());
  }
}
