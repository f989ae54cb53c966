package dev.mcpfusion.baselines.quarkus;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;

/**
 * The billing sample's 1,000 invoices, generated exactly as the sample's
 * {@code InvoiceStore.sample()} generates them (this project cannot depend on the sample: it stays
 * out of the root reactor), so every server in the comparison looks up the same data.
 */
@ApplicationScoped
public class Invoices {
  /** The tenant every sample invoice belongs to. */
  public static final String SAMPLE_TENANT = "t_777";

  /** The sample's statuses, in its enum's order (the generator indexes it). */
  private static final String[] STATUSES = {"DRAFT", "OPEN", "PAID", "VOID"};

  /** An invoice as the store keeps it; the last three fields must never reach an agent. */
  public record Invoice(String id, long totalCents, String status, String webhookSecret,
      Map<String, Object> internalFlags, String tenantId) {}

  private final Map<String, Invoice> byId = new HashMap<>();

  public Invoices() {
    for (int i = 1; i <= 1000; i++) {
      String digits = Integer.toString(i);
      String id = "INV-" + "0000".substring(digits.length()) + digits;
      byId.put(id, new Invoice(id, 1000L + (i * 137L) % 90_000L, STATUSES[(i * 7) % STATUSES.length],
          "whsec_" + Integer.toHexString(id.hashCode() * 31 + i),
          Map.of("riskScore", i % 100, "reviewer", "ops-" + (i % 7)), SAMPLE_TENANT));
    }
  }

  /** The tenant's invoice with this id, or {@code null}. Read-only after construction, so no lock. */
  public Invoice find(String tenant, String id) {
    Invoice invoice = byId.get(id);
    return invoice != null && invoice.tenantId().equals(tenant) ? invoice : null;
  }
}
