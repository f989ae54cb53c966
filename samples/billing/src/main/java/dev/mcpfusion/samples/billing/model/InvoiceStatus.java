package dev.mcpfusion.samples.billing.model;

/** The lifecycle of an invoice. */
public enum InvoiceStatus {
  DRAFT,
  OPEN,
  PAID,
  VOID
}
