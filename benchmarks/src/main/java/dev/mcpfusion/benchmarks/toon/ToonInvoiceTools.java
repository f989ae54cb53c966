package dev.mcpfusion.benchmarks.toon;

import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Rules;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
import java.util.List;

/**
 * The billing sample's {@code list_invoices} with the sample's view declared
 * {@code format = TOON}: same components, limit and rules, so only the data block differs.
 */
@Router(value = "billing", description = "Invoices: list, inspect and void them")
public final class ToonInvoiceTools {
  /** The sample's {@code InvoiceView}, written as a TOON table. */
  @Presenter(model = Invoice.class, agentLimit = 50, format = Format.TOON)
  @Rules("Money is in integer cents. Divide by 100 before showing it to a person.")
  public record InvoiceToonView(String id, long totalCents, InvoiceStatus status) {}

  private final InvoiceStore store;

  public ToonInvoiceTools(InvoiceStore store) {
    this.store = store;
  }

  @Query(description = "List invoices, newest first", presenter = InvoiceToonView.class)
  public List<Invoice> listInvoices(InvoiceStatus status) {
    return store.list(new Tenant(Tenant.SAMPLE_TENANT), status);
  }
}
