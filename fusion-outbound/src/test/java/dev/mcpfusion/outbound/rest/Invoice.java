package dev.mcpfusion.outbound.rest;

/** The upstream's invoice, as its REST API answers it (with a note the agent must not read). */
public record Invoice(String id, long totalCents, String status, String internalNote) {}
