package dev.mcpfusion.core.presenter;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Values;
import dev.mcpfusion.core.spi.Verb;
import dev.mcpfusion.wire.References;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-written stand-ins for what the processor generates: a model, its view and the binding. */
final class Fixtures {
  private Fixtures() {}

  enum Status { OPEN, PAID }

  /** The model: {@code secret} must never reach the wire. */
  record Invoice(String id, long totalCents, Status status, String secret) {}

  /** The view: declared components only. */
  record InvoiceView(String id, long totalCents, Status status) {}

  /** A binding like a generated {@code InvoiceView_Presenter}. */
  static class InvoicePresenter implements PresenterBinding<Invoice, InvoiceView> {
    private final int limit;

    InvoicePresenter(int limit) {
      this.limit = limit;
    }

    @Override public int spiVersion() {
      return dev.mcpfusion.core.spi.FusionSpi.VERSION;
    }

    @Override public Class<Invoice> modelType() {
      return Invoice.class;
    }

    @Override public Class<InvoiceView> viewType() {
      return InvoiceView.class;
    }

    @Override public InvoiceView fromModel(Invoice model) {
      return new InvoiceView(model.id(), model.totalCents(), model.status());
    }

    @Override public InvoiceView fromMap(Map<String, ?> row) {
      return new InvoiceView(Values.asString(row.get("id"), "id"),
          Values.require(Values.asLong(row.get("totalCents"), "totalCents"), "totalCents"),
          Values.asEnum(row.get("status"), Status.class, "status"));
    }

    @Override public Map<String, Object> toTree(InvoiceView view) {
      Map<String, Object> tree = new LinkedHashMap<>();
      tree.put("id", view.id());
      tree.put("totalCents", view.totalCents());
      tree.put("status", view.status() == null ? null : view.status().name());
      return tree;
    }

    @Override public String outputSchemaJson() {
      return "{\"type\":\"object\"}";
    }

    @Override public List<String> fieldNames() {
      return List.of("id", "totalCents", "status");
    }

    @Override public List<String> staticRules() {
      return List.of("totalCents: Total in integer cents", "Money is in integer cents.");
    }

    @Override public List<String> dynamicRules(InvoiceView view) {
      return view.status() == Status.PAID ? List.of("Paid invoices cannot be voided.") : List.of();
    }

    @Override public List<Suggestion> suggestions(InvoiceView view) {
      return view.status() == Status.OPEN
          ? List.of(Suggestion.of("billing.void_invoice", "Open invoices can be voided",
              Map.of("id", view.id())))
          : List.of(Suggestion.of("billing.list_invoices", "See the other invoices"));
    }

    @Override public int agentLimit() {
      return limit;
    }
  }

  static final InvoicePresenter PRESENTER = new InvoicePresenter(50);

  static ActionDescriptor action(ResultShape shape, ElementKind kind, PresenterBinding<?, ?> presenter) {
    return new ActionDescriptor("list_invoices", "listInvoices", "List invoices", Verb.QUERY,
        true, false, false, false, List.of(), List.of(), presenter, shape, kind,
        presenter == null ? "{\"type\":\"string\"}" : null, CachePolicy.DEFAULT, List.of(),
        List.of(), List.of(), false);
  }

  static ActionDescriptor action(ResultShape shape) {
    return action(shape, ElementKind.MODEL, PRESENTER);
  }

  static Invoice invoice(int n) {
    return new Invoice(String.format("INV-%04d", n), n * 100L, n % 2 == 0 ? Status.PAID : Status.OPEN,
        "whsec_" + n);
  }

  /** FLAT rendering with the {@code _} separator. */
  static final References FLAT = ref -> ref.replace('.', '_');
}
