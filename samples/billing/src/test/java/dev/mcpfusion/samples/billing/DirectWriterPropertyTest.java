package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.billing.fixtures.Orders;
import dev.mcpfusion.samples.billing.fixtures.Orders_OrderView_Presenter;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import dev.mcpfusion.samples.billing.presenter.InvoiceView;
import dev.mcpfusion.samples.billing.presenter.InvoiceView_Presenter;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The sample's generated presenters write the data block directly ({@code appendJson}); for any
 * model the text is byte for byte {@code Json.write(toTree(view))}, which is what
 * {@code structuredContent} carries.
 */
class DirectWriterPropertyTest {
  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(24),
        Arbitraries.of("INV-0042", "", "\"", "\\", "\u0000\u001f", "\ud800", "caf\u00e9 \ud83d\udcca",
            "\u2028</script>"));
  }

  @Property(tries = 500)
  void invoiceViewTextIsTheTreesText(@ForAll("text") String id, @ForAll long totalCents,
      @ForAll InvoiceStatus status) {
    InvoiceView_Presenter p = InvoiceView_Presenter.INSTANCE;
    InvoiceView view = p.fromModel(new Invoice(id, totalCents, status, "whsec", Map.of(), "t_1"));
    assertThat(p.toJson(view)).isEqualTo(Json.write(p.toTree(view)));
  }

  @Property(tries = 200)
  void nestedOrderViewTextIsTheTreesText(@ForAll("text") String id, @ForAll("text") String sku,
      @ForAll long qty, @ForAll("text") String name) {
    Orders_OrderView_Presenter p = Orders_OrderView_Presenter.INSTANCE;
    Orders.Order order = new Orders.Order(id, List.of(
        new Orders.LineItem(sku, qty, "cost"), new Orders.LineItem(name, -qty, "cost")),
        new Orders.Customer(id, name, "tax"), "token");
    Orders.OrderView view = p.fromModel(order);
    assertThat(p.toJson(view)).isEqualTo(Json.write(p.toTree(view)));
  }
}
