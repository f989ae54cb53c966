package dev.mcpfusion.samples.billing.model;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Guarded;
import dev.mcpfusion.annotation.Hidden;
import dev.mcpfusion.annotation.Model;
import java.util.Map;

/**
 * A customer invoice as the billing system stores it. Three properties never leave the process:
 * the webhook secret, the internal flags and the tenant id.
 */
@Model(description = "A customer invoice")
public record Invoice(
    @Describe("Invoice ID, e.g. INV-0042") String id,
    @Describe("Total in integer cents; divide by 100 for display") long totalCents,
    @Describe("draft, open, paid or void") InvoiceStatus status,
    @Hidden String webhookSecret,
    @Hidden Map<String, Object> internalFlags,
    @Hidden @Guarded String tenantId) {

  /** This invoice with another status. */
  public Invoice withStatus(InvoiceStatus newStatus) {
    return new Invoice(id, totalCents, newStatus, webhookSecret, internalFlags, tenantId);
  }
}
