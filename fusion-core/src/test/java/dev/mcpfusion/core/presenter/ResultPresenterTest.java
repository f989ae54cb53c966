package dev.mcpfusion.core.presenter;

import static dev.mcpfusion.core.presenter.Fixtures.FLAT;
import static dev.mcpfusion.core.presenter.Fixtures.PRESENTER;
import static dev.mcpfusion.core.presenter.Fixtures.action;
import static dev.mcpfusion.core.presenter.Fixtures.invoice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.presenter.Fixtures.Invoice;
import dev.mcpfusion.core.presenter.Fixtures.InvoicePresenter;
import dev.mcpfusion.core.presenter.Fixtures.InvoiceView;
import dev.mcpfusion.core.presenter.Fixtures.Status;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ResultPresenterTest {
  private static final String RULES = "<domain_rules>\n"
      + "- totalCents: Total in integer cents\n"
      + "- Money is in integer cents.\n"
      + "</domain_rules>";

  private static List<Invoice> invoices(int n) {
    return IntStream.rangeClosed(1, n).mapToObj(Fixtures::invoice).toList();
  }

  @Test
  void singleModelRendersViewJsonThenRulesThenSuggestions() {
    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE), invoice(1), FLAT);

    assertThat(reply.isError()).isFalse();
    assertThat(reply.blocks()).containsExactly(
        "{\"id\":\"INV-0001\",\"totalCents\":100,\"status\":\"OPEN\"}",
        RULES,
        "<action_suggestions>\n"
            + "- billing_void_invoice {\"id\":\"INV-0001\"}: Open invoices can be voided\n"
            + "</action_suggestions>");
    assertThat(Json.write(reply.structuredContent()))
        .isEqualTo("{\"id\":\"INV-0001\",\"totalCents\":100,\"status\":\"OPEN\"}");
    assertThat(Json.write(reply.meta())).isEqualTo("{\"mcpfusion/rules\":"
        + "[\"totalCents: Total in integer cents\",\"Money is in integer cents.\"],"
        + "\"mcpfusion/suggestions\":[{\"action\":\"billing.void_invoice\","
        + "\"reason\":\"Open invoices can be voided\",\"arguments\":{\"id\":\"INV-0001\"}}]}");
  }

  @Test
  void hiddenModelPropertyNeverReachesAnyPart() {
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION), invoices(3), FLAT);

    assertThat(reply.text()).doesNotContain("whsec_");
    assertThat(Json.write(reply.structuredContent())).doesNotContain("whsec_");
    assertThat(Json.write(reply.meta())).doesNotContain("whsec_");
  }

  @Test
  void suggestionWithoutArgumentsHasNoArgumentsPart() {
    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE), invoice(2), FLAT);

    assertThat(reply.blocks()).containsExactly(
        "{\"id\":\"INV-0002\",\"totalCents\":200,\"status\":\"PAID\"}",
        "<domain_rules>\n"
            + "- totalCents: Total in integer cents\n"
            + "- Money is in integer cents.\n"
            + "- Paid invoices cannot be voided.\n"
            + "</domain_rules>",
        "<action_suggestions>\n"
            + "- billing_list_invoices: See the other invoices\n"
            + "</action_suggestions>");
    assertThat(Json.write(reply.meta().get("mcpfusion/suggestions")))
        .isEqualTo("[{\"action\":\"billing.list_invoices\",\"reason\":\"See the other invoices\"}]");
  }

  @Test
  void listOfThousandShowsFiftyAndSaysHowManyAreHidden() {
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION), invoices(1000), FLAT);

    List<?> data = (List<?>) Json.parse(reply.blocks().get(0));
    assertThat(data).hasSize(50);
    assertThat(((Map<?, ?>) data.get(49)).get("id")).isEqualTo("INV-0050");
    assertThat(reply.blocks().get(1)).isEqualTo("<ui_passthrough type=\"summary\">\n"
        + "📊 **Summary**: ⚠️ Dataset truncated. 50 shown, 950 hidden. Use filters to narrow results.\n"
        + "</ui_passthrough>");
    assertThat(reply.blocks().get(2)).startsWith("<domain_rules>\n");
    assertThat(reply.blocks().get(3)).startsWith("<action_suggestions>\n");
    assertThat(reply.blocks()).hasSize(4);
    assertThat(Json.write(reply.structuredContent().get("truncated")))
        .isEqualTo("{\"shown\":50,\"hidden\":950}");
    assertThat((List<?>) reply.structuredContent().get("items")).hasSize(50);
    assertThat(Json.write(reply.meta().get("mcpfusion/truncation")))
        .isEqualTo("{\"shown\":50,\"hidden\":950}");
  }

  @Test
  void dataBlockIsTheJsonArrayOfShownItemsAndStructuredContentWrapsItInItems() {
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION), invoices(2), FLAT);

    String items = "[{\"id\":\"INV-0001\",\"totalCents\":100,\"status\":\"OPEN\"},"
        + "{\"id\":\"INV-0002\",\"totalCents\":200,\"status\":\"PAID\"}]";
    assertThat(reply.blocks().get(0)).isEqualTo(items);
    assertThat(Json.write(reply.structuredContent())).isEqualTo("{\"items\":" + items + "}");
    assertThat(reply.meta()).doesNotContainKey("mcpfusion/truncation");
  }

  @Test
  void rulesAndSuggestionsAreDeduplicatedInFirstSeenOrderAcrossItems() {
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION), invoices(4), FLAT);

    assertThat(reply.blocks()).containsExactly(
        reply.blocks().get(0),
        "<domain_rules>\n"
            + "- totalCents: Total in integer cents\n"
            + "- Money is in integer cents.\n"
            + "- Paid invoices cannot be voided.\n"
            + "</domain_rules>",
        "<action_suggestions>\n"
            + "- billing_void_invoice {\"id\":\"INV-0001\"}: Open invoices can be voided\n"
            + "- billing_list_invoices: See the other invoices\n"
            + "- billing_void_invoice {\"id\":\"INV-0003\"}: Open invoices can be voided\n"
            + "</action_suggestions>");
  }

  @Test
  void suggestionsAndRulesComeOnlyFromShownItems() {
    // Only item 1 (OPEN) is shown: the PAID rule and the list suggestion of item 2 must not appear.
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION, ElementKind.MODEL,
        new InvoicePresenter(1)), invoices(2), FLAT);

    assertThat(reply.text()).doesNotContain("Paid invoices").doesNotContain("billing_list_invoices")
        .contains("1 shown, 1 hidden");
  }

  @Test
  void exactlyLimitItemsIsNotTruncated() {
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION), invoices(50), FLAT);

    assertThat(reply.text()).doesNotContain("ui_passthrough");
    assertThat(reply.structuredContent()).doesNotContainKey("truncated");
  }

  @Test
  void emptyCollectionIsAnEmptyArrayWithoutSummary() {
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION), List.of(), FLAT);

    assertThat(reply.blocks()).containsExactly("[]", RULES);
    assertThat(Json.write(reply.structuredContent())).isEqualTo("{\"items\":[]}");
    assertThat(reply.meta()).containsOnlyKeys("mcpfusion/rules");
  }

  @Test
  void arrayResultKnowsItsSize() {
    Reply reply = ResultPresenter.present(action(ResultShape.ARRAY),
        invoices(60).toArray(new Invoice[0]), FLAT);

    assertThat(reply.blocks().get(1)).contains("50 shown, 10 hidden.");
    assertThat(Json.write(reply.structuredContent().get("truncated")))
        .isEqualTo("{\"shown\":50,\"hidden\":10}");
  }

  @Test
  void millionRowStreamPullsExactlyLimitPlusOneAndIsClosed() {
    AtomicInteger pulled = new AtomicInteger();
    AtomicBoolean closed = new AtomicBoolean();
    Stream<Invoice> rows = IntStream.rangeClosed(1, 1_000_000).mapToObj(Fixtures::invoice)
        .peek(i -> pulled.incrementAndGet())
        .onClose(() -> closed.set(true));

    Reply reply = ResultPresenter.present(action(ResultShape.STREAM), rows, FLAT);

    assertThat(pulled).hasValue(51);
    assertThat(closed).isTrue();
    assertThat(reply.blocks().get(1)).isEqualTo("<ui_passthrough type=\"summary\">\n"
        + "📊 **Summary**: ⚠️ Dataset truncated. 50 shown, more available. Use filters to narrow results.\n"
        + "</ui_passthrough>");
    assertThat(Json.write(reply.structuredContent().get("truncated")))
        .isEqualTo("{\"shown\":50,\"more\":true}");
    assertThat(Json.write(reply.meta().get("mcpfusion/truncation")))
        .isEqualTo("{\"shown\":50,\"more\":true}");
    assertThat((List<?>) Json.parse(reply.blocks().get(0))).hasSize(50);
  }

  @Test
  void infiniteStreamPullsExactlyLimitPlusOneAndIsClosed() {
    AtomicInteger pulled = new AtomicInteger();
    AtomicBoolean closed = new AtomicBoolean();
    Stream<Invoice> rows = Stream.iterate(1, i -> i + 1).map(Fixtures::invoice)
        .peek(i -> pulled.incrementAndGet())
        .onClose(() -> closed.set(true));

    Reply reply = ResultPresenter.present(action(ResultShape.STREAM), rows, FLAT);

    assertThat(pulled).hasValue(51);
    assertThat(closed).isTrue();
    assertThat(reply.blocks().get(1)).contains("50 shown, more available. Use filters");
  }

  @Test
  void shortStreamIsNotTruncatedAndIsClosed() {
    AtomicBoolean closed = new AtomicBoolean();
    Stream<Invoice> rows = invoices(3).stream().onClose(() -> closed.set(true));

    Reply reply = ResultPresenter.present(action(ResultShape.STREAM), rows, FLAT);

    assertThat(closed).isTrue();
    assertThat(reply.text()).doesNotContain("ui_passthrough");
    assertThat((List<?>) reply.structuredContent().get("items")).hasSize(3);
  }

  @Test
  void presenterThrowingMidStreamStillClosesTheStream() {
    AtomicBoolean closed = new AtomicBoolean();
    AtomicInteger pulled = new AtomicInteger();
    InvoicePresenter failing = new InvoicePresenter(50) {
      @Override public InvoiceView fromModel(Invoice model) {
        if (model.id().equals("INV-0007")) {
          throw new IllegalArgumentException("boom");
        }
        return super.fromModel(model);
      }
    };
    Stream<Invoice> rows = Stream.iterate(1, i -> i + 1).map(Fixtures::invoice)
        .peek(i -> pulled.incrementAndGet())
        .onClose(() -> closed.set(true));

    assertThatThrownBy(() -> ResultPresenter.present(
        action(ResultShape.STREAM, ElementKind.MODEL, failing), rows, FLAT))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("boom");
    assertThat(closed).isTrue();
    assertThat(pulled).hasValue(7);
  }

  /** An iterable that is not a collection, counts what is pulled and records closing. */
  static final class CountingRows implements Iterable<Invoice>, AutoCloseable {
    final AtomicInteger pulled = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();
    final AtomicBoolean iteratorClosed = new AtomicBoolean();
    final int size;

    CountingRows(int size) {
      this.size = size;
    }

    @Override public Iterator<Invoice> iterator() {
      return new CloseableIterator();
    }

    @Override public void close() {
      closed.set(true);
    }

    final class CloseableIterator implements Iterator<Invoice>, AutoCloseable {
      int next = 1;

      @Override public boolean hasNext() {
        return size < 0 || next <= size;
      }

      @Override public Invoice next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        pulled.incrementAndGet();
        return invoice(next++);
      }

      @Override public void close() {
        iteratorClosed.set(true);
      }
    }
  }

  @Test
  void lazyIterableIsReadOnlyToTheLimitAndClosed() {
    CountingRows rows = new CountingRows(-1);

    Reply reply = ResultPresenter.present(action(ResultShape.ITERABLE), rows, FLAT);

    assertThat(rows.pulled.get()).isLessThanOrEqualTo(51).isGreaterThanOrEqualTo(50);
    assertThat(rows.closed).isTrue();
    assertThat(rows.iteratorClosed).isTrue();
    assertThat(reply.blocks().get(1)).contains("50 shown, more available.");
  }

  @Test
  void lazyIterableIsClosedWhenThePresenterFails() {
    CountingRows rows = new CountingRows(10);
    InvoicePresenter failing = new InvoicePresenter(50) {
      @Override public Map<String, Object> toTree(InvoiceView view) {
        throw new IllegalStateException("writer failed");
      }
    };

    assertThatThrownBy(() -> ResultPresenter.present(
        action(ResultShape.ITERABLE, ElementKind.MODEL, failing), rows, FLAT))
        .hasMessage("writer failed");
    assertThat(rows.closed).isTrue();
    assertThat(rows.iteratorClosed).isTrue();
  }

  @Test
  void shortLazyIterableIsComplete() {
    CountingRows rows = new CountingRows(5);

    Reply reply = ResultPresenter.present(action(ResultShape.ITERABLE), rows, FLAT);

    assertThat(rows.pulled).hasValue(5);
    assertThat(rows.closed).isTrue();
    assertThat(reply.text()).doesNotContain("ui_passthrough");
  }

  @Test
  void emptyOptionalIsNotFound() {
    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.OPTIONAL), Optional.empty(), FLAT))
        .isInstanceOfSatisfying(FusionError.class, e -> {
          assertThat(e.code()).isEqualTo("NOT_FOUND");
          assertThat(e.getMessage()).isEqualTo("No result was found.");
          assertThat(e.recovery()).isEqualTo(
              "Check the identifiers you sent; list the items first if you do not have one.");
        });
  }

  @Test
  void presentOptionalIsPresentedAsSingle() {
    Reply reply = ResultPresenter.present(action(ResultShape.OPTIONAL), Optional.of(invoice(1)), FLAT);

    assertThat(reply.blocks().get(0)).isEqualTo("{\"id\":\"INV-0001\",\"totalCents\":100,\"status\":\"OPEN\"}");
  }

  @Test
  void nullSingleIsAnInternalFailure() {
    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.SINGLE), null, FLAT))
        .isInstanceOf(IllegalStateException.class).hasMessage("returned null");
  }

  @Test
  void nullItemInsideCollectionIsAnInternalFailure() {
    List<Invoice> rows = new ArrayList<>(invoices(2));
    rows.add(null);
    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.COLLECTION), rows, FLAT))
        .isInstanceOf(IllegalStateException.class).hasMessage("returned a null item at index 2");
  }

  @Test
  void returnedFusionErrorIsThrown() {
    FusionError error = FusionError.conflict("Already paid.");
    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.SINGLE), error, FLAT))
        .isSameAs(error);
  }

  @Test
  void voidIsOk() {
    Reply reply = ResultPresenter.present(action(ResultShape.VOID, ElementKind.NONE, null), null, FLAT);

    assertThat(reply.blocks()).containsExactly("OK");
    assertThat(Json.write(reply.structuredContent())).isEqualTo("{\"result\":\"OK\"}");
    assertThat(reply.meta()).isEmpty();
  }

  @Test
  void stringValueIsItsRawTextAndOtherValuesTheirJson() {
    var value = action(ResultShape.VALUE, ElementKind.NONE, null);

    Reply text = ResultPresenter.present(value, "Invoice <b> & \"x\"", FLAT);
    assertThat(text.blocks()).containsExactly("Invoice <b> & \"x\"");
    assertThat(Json.write(text.structuredContent())).isEqualTo("{\"result\":\"Invoice <b> & \\\"x\\\"\"}");

    Reply number = ResultPresenter.present(value, 42L, FLAT);
    assertThat(number.blocks()).containsExactly("42");
    assertThat(Json.write(number.structuredContent())).isEqualTo("{\"result\":42}");

    Reply bool = ResultPresenter.present(value, true, FLAT);
    assertThat(bool.blocks()).containsExactly("true");

    Reply status = ResultPresenter.present(value, Status.PAID, FLAT);
    assertThat(status.blocks()).containsExactly("\"PAID\"");
    assertThat(Json.write(status.structuredContent())).isEqualTo("{\"result\":\"PAID\"}");
  }

  @Test
  void nullValueIsAnInternalFailure() {
    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.VALUE, ElementKind.NONE, null), null, FLAT))
        .isInstanceOf(IllegalStateException.class).hasMessage("returned null");
  }

  @Test
  void mapRowsKeepOnlyDeclaredKeys() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", "INV-9");
    row.put("totalCents", 900);
    row.put("status", "OPEN");
    row.put("webhookSecret", "whsec_sentinel");

    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION, ElementKind.MAP, PRESENTER),
        List.of(row), FLAT);

    assertThat(reply.blocks().get(0)).isEqualTo("[{\"id\":\"INV-9\",\"totalCents\":900,\"status\":\"OPEN\"}]");
    assertThat(reply.text()).doesNotContain("sentinel");
  }

  @Test
  void jacksonTreesKeepOnlyDeclaredKeys() {
    var tree = JsonMapper.builder().build().readTree(
        "{\"id\":\"INV-5\",\"totalCents\":500,\"status\":\"PAID\",\"internal\":{\"k\":\"sentinel\"}}");

    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE, ElementKind.TREE, PRESENTER), tree, FLAT);

    assertThat(reply.blocks().get(0)).isEqualTo("{\"id\":\"INV-5\",\"totalCents\":500,\"status\":\"PAID\"}");
    assertThat(Json.write(reply.structuredContent())).doesNotContain("sentinel");
  }

  @Test
  void viewResultIsUsedAsIs() {
    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE, ElementKind.VIEW, PRESENTER),
        new InvoiceView("INV-3", 3, Status.OPEN), FLAT);

    assertThat(reply.blocks().get(0)).isEqualTo("{\"id\":\"INV-3\",\"totalCents\":3,\"status\":\"OPEN\"}");
  }

  @Test
  void wrongItemTypeIsAnInternalFailureNamingTheTypes() {
    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.SINGLE), "not an invoice", FLAT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("java.lang.String").hasMessageContaining("Invoice");
  }

  @Test
  void ruleAndSuggestionTextIsEscaped() {
    InvoicePresenter markup = new InvoicePresenter(50) {
      @Override public List<String> staticRules() {
        return List.of("Totals < 0 mean credit & refunds");
      }

      @Override public List<dev.mcpfusion.core.Suggestion> suggestions(InvoiceView view) {
        return List.of(dev.mcpfusion.core.Suggestion.of("billing.void_invoice", "When <open> & unpaid",
            Map.of("id", "<x>")));
      }
    };

    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE, ElementKind.MODEL, markup), invoice(1), FLAT);

    assertThat(reply.blocks().get(1)).isEqualTo("<domain_rules>\n- Totals &lt; 0 mean credit &amp; refunds\n</domain_rules>");
    assertThat(reply.blocks().get(2)).isEqualTo("<action_suggestions>\n"
        + "- billing_void_invoice {\"id\":\"&lt;x>\"}: When &lt;open> &amp; unpaid\n"
        + "</action_suggestions>");
    assertThat(reply.meta().get("mcpfusion/rules")).isEqualTo(List.of("Totals < 0 mean credit & refunds"));
  }

  @Test
  void streamIsClosedEvenWhenTheActionHasNoPresenter() {
    AtomicBoolean closed = new AtomicBoolean();
    Stream<Invoice> rows = invoices(3).stream().onClose(() -> closed.set(true));

    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.STREAM, ElementKind.MODEL, null), rows, FLAT))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no presenter");
    assertThat(closed).isTrue();
  }

  @Test
  void streamOfWrongItemsIsClosed() {
    AtomicBoolean closed = new AtomicBoolean();
    Stream<String> rows = Stream.of("a", "b").onClose(() -> closed.set(true));

    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.STREAM), rows, FLAT))
        .isInstanceOf(IllegalStateException.class);
    assertThat(closed).isTrue();
  }

  @Test
  void closeFailureAfterAPresenterFailureIsSuppressedNotLost() {
    Stream<Invoice> rows = invoices(3).stream().onClose(() -> {
      throw new IllegalStateException("close failed");
    });
    InvoicePresenter failing = new InvoicePresenter(50) {
      @Override public InvoiceView fromModel(Invoice model) {
        throw new IllegalArgumentException("boom");
      }
    };

    assertThatThrownBy(() -> ResultPresenter.present(action(ResultShape.STREAM, ElementKind.MODEL, failing), rows, FLAT))
        .hasMessage("boom")
        .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("close failed"));
  }

  @Test
  void valueStructuredContentIsAPlainTree() {
    var value = action(ResultShape.VALUE, ElementKind.NONE, null);
    Reply reply = ResultPresenter.present(value, 'x', FLAT);

    assertThat(reply.blocks()).containsExactly("\"x\"");
    assertThat(reply.structuredContent().get("result")).isEqualTo("x");
    assertThat(ResultPresenter.present(value, 7, FLAT).structuredContent().get("result")).isEqualTo(7L);
  }
}
