package dev.mcpfusion.core.presenter;

import static dev.mcpfusion.core.presenter.Fixtures.FLAT;
import static dev.mcpfusion.core.presenter.Fixtures.action;
import static dev.mcpfusion.core.presenter.Fixtures.invoice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.presenter.Fixtures.InvoicePresenter;
import dev.mcpfusion.core.presenter.Fixtures.InvoiceView;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The data block is written by the presenter's {@code appendJson} (the generated direct writer),
 * one view at a time; {@code structuredContent} keeps the trees; both say the same.
 */
class DataBlockTest {
  /** A binding with its own writer, as a generated presenter has: it records what it wrote. */
  static final class Writing extends InvoicePresenter {
    final List<String> ids = new ArrayList<>();

    Writing(int limit) {
      super(limit);
    }

    @Override public void appendJson(InvoiceView view, StringBuilder out) {
      ids.add(view.id());
      out.append("{\"id\":");
      Json.appendString(view.id(), out);
      out.append(",\"totalCents\":").append(view.totalCents()).append(",\"status\":");
      Json.appendString(view.status().name(), out);
      out.append('}');
    }
  }

  @Test
  void singleResultDataBlockIsTheViewsOwnJson() {
    Writing writing = new Writing(50);
    Reply reply = ResultPresenter.present(action(ResultShape.SINGLE, ElementKind.MODEL, writing),
        invoice(7), FLAT);
    assertThat(writing.ids).containsExactly("INV-0007");
    assertThat(reply.blocks().get(0))
        .isEqualTo("{\"id\":\"INV-0007\",\"totalCents\":700,\"status\":\"OPEN\"}")
        .isEqualTo(Json.write(reply.structuredContent()));
    // The byte cap bounds the reply from this length instead of walking the tree.
    assertThat(reply.structuredChars()).isEqualTo(Json.write(reply.structuredContent()).length());
  }

  @Test
  void collectionDataBlockJoinsTheShownViewsAndMatchesTheTrees() {
    Writing writing = new Writing(3);
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION, ElementKind.MODEL, writing),
        IntStream.rangeClosed(1, 5).mapToObj(Fixtures::invoice).toList(), FLAT);
    assertThat(writing.ids).containsExactly("INV-0001", "INV-0002", "INV-0003");
    assertThat(reply.blocks().get(0)).isEqualTo(Json.write(reply.structuredContent().get("items")))
        .startsWith("[{\"id\":\"INV-0001\",").endsWith("\"status\":\"OPEN\"}]");
    // Cut to 3 of 5: the length counts the truncation record too.
    assertThat(reply.structuredContent()).containsKey("truncated");
    assertThat(reply.structuredChars()).isEqualTo(Json.write(reply.structuredContent()).length());
  }

  @Test
  void emptyCollectionIsAnEmptyArray() {
    Writing writing = new Writing(3);
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION, ElementKind.MODEL, writing),
        List.of(), FLAT);
    assertThat(writing.ids).isEmpty();
    assertThat(reply.blocks().get(0)).isEqualTo("[]");
    assertThat(reply.structuredChars()).isEqualTo(Json.write(reply.structuredContent()).length());
    // No view, so no suggestions or dynamic rules: the _meta is the static rules, known at build.
    assertThat(reply.meta()).containsOnlyKeys("mcpfusion/rules");
    assertThat(reply.metaChars()).isEqualTo(Json.write(reply.meta()).length());
  }

  @Test
  void aBindingWithoutItsOwnWriterStillWritesTheTreesText() {
    // Fixtures.PRESENTER does not override appendJson: the default writes Json.write(toTree(view)).
    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION),
        List.of(invoice(1), invoice(2)), FLAT);
    Map<String, Object> structured = reply.structuredContent();
    assertThat(reply.blocks().get(0)).isEqualTo(Json.write(structured.get("items")));
    assertThat(Fixtures.PRESENTER.toJson(Fixtures.PRESENTER.fromModel(invoice(3))))
        .isEqualTo(Json.write(Fixtures.PRESENTER.toTree(Fixtures.PRESENTER.fromModel(invoice(3)))));
  }
}
