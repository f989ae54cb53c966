package dev.mcpfusion.benchmarks.presenter;

import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;

/**
 * The hand-written equivalent of {@code InvoiceView} for Jackson: the same three fields, in the
 * same order, serialized reflectively.
 */
public record InvoiceDto(String id, long totalCents, InvoiceStatus status) {
  /** The DTO of an invoice (the hidden properties are not copied). */
  public static InvoiceDto of(Invoice invoice) {
    return new InvoiceDto(invoice.id(), invoice.totalCents(), invoice.status());
  }
}
