package dev.mcpfusion.samples.billing.presenter;

import dev.mcpfusion.annotation.Presenter;
import dev.mcpfusion.annotation.Rules;
import dev.mcpfusion.annotation.Suggest;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import java.util.List;

/** What an agent sees of an invoice: its id, total and status, and nothing else. */
@Presenter(model = Invoice.class, agentLimit = 50, select = true)
@Rules("Money is in integer cents. Divide by 100 before showing it to a person.")
public record InvoiceView(String id, long totalCents, InvoiceStatus status) {

  @Suggest
  static List<Suggestion> next(InvoiceView v) {
    return v.status() == InvoiceStatus.OPEN
        ? List.of(Suggestion.of("billing.void_invoice", "Open invoices can be voided"))
        : List.of();
  }
}
