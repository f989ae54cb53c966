package dev.mcpfusion.samples.billing.store;

import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** An in-memory, thread-safe invoice store. */
public final class InvoiceStore {
  private final ConcurrentMap<String, Invoice> invoices = new ConcurrentHashMap<>();

  /** An empty store. */
  public InvoiceStore() {}

  /**
   * A store with 1,000 invoices {@code INV-0001} … {@code INV-1000} of tenant {@code t_777}, statuses
   * mixed, each with a webhook secret and internal flags that must never reach an agent.
   */
  public static InvoiceStore sample() {
    InvoiceStore store = new InvoiceStore();
    InvoiceStatus[] statuses = InvoiceStatus.values();
    for (int i = 1; i <= 1000; i++) {
      // Padded by hand: a thousand String.format calls (run interpreted) cost about 30-90 ms of a
      // cold start on a 2-core machine, twice what the whole loop costs now.
      String digits = Integer.toString(i);
      String id = "INV-" + "0000".substring(digits.length()) + digits;
      InvoiceStatus status = statuses[(i * 7) % statuses.length];
      store.put(new Invoice(id, 1000L + (i * 137L) % 90_000L, status,
          "whsec_" + Integer.toHexString(id.hashCode() * 31 + i),
          Map.of("riskScore", i % 100, "reviewer", "ops-" + (i % 7)),
          Tenant.SAMPLE_TENANT));
    }
    return store;
  }

  /** Adds or replaces an invoice. */
  public void put(Invoice invoice) {
    invoices.put(invoice.id(), invoice);
  }

  /** The tenant's invoice with this id. */
  public Optional<Invoice> find(Tenant tenant, String id) {
    Invoice invoice = invoices.get(id);
    return invoice != null && invoice.tenantId().equals(tenant.id())
        ? Optional.of(invoice)
        : Optional.empty();
  }

  /** The tenant's invoices, newest (highest number) first, optionally of one status. */
  public List<Invoice> list(Tenant tenant, InvoiceStatus status) {
    return invoices.values().stream()
        .filter(i -> i.tenantId().equals(tenant.id()))
        .filter(i -> status == null || i.status() == status)
        .sorted(Comparator.comparing(Invoice::id).reversed())
        .toList();
  }

  /**
   * Atomically replaces the invoice with {@code updated} if it still equals {@code expected}.
   *
   * @return whether the replacement happened
   */
  public boolean replace(Invoice expected, Invoice updated) {
    return invoices.replace(expected.id(), expected, updated);
  }
}
