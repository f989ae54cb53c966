package dev.mcpfusion.outbound.rest;

import dev.mcpfusion.annotation.Presenter;

/** What the agent reads of an upstream invoice: the rest of the JSON never leaves. */
@Presenter(model = Invoice.class, ignore = "internalNote")
public record InvoiceView(String id, long totalCents, String status) {}
