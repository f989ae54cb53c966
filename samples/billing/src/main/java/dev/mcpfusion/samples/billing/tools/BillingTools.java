package dev.mcpfusion.samples.billing.tools;

import dev.mcpfusion.annotation.CacheControl;
import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.NonBlocking;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.Scopes;
import dev.mcpfusion.annotation.Use;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.Page;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.samples.billing.model.Invoice;
import dev.mcpfusion.samples.billing.model.InvoiceStatus;
import dev.mcpfusion.samples.billing.presenter.InvoiceView;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.util.List;

/**
 * The billing connector: list, inspect and void invoices; a prompt that summarises the open
 * invoices, and each invoice as a resource ({@code billing://invoices/{id}}) whose id completes.
 *
 * <p>Behind OAuth ({@code BillingMain --auth-issuer}) a caller needs {@code invoices:read} to see
 * and use any of it, and {@code invoices:write} as well to void; stdio and unauthenticated HTTP
 * serve the local caller, to whom no scope requirement applies.
 */
@Router(value = "billing", description = "Invoices: list, inspect and void them")
@Scopes("invoices:read")
@Use(TenantGuard.class)
public final class BillingTools {
  private final InvoiceStore store;

  public BillingTools(InvoiceStore store) {
    this.store = store;
  }

  /** Invoices per page: the view's agentLimit, so a whole page reaches the agent. */
  static final int PAGE_SIZE = 50;

  /**
   * One page of invoices. The cursor is the id of the last invoice of the previous page (keyset
   * paging: an invoice voided or added meanwhile never shifts the pages); the framework hands the
   * agent its own opaque form of it.
   */
  @Query(description = "List invoices, newest first", presenter = InvoiceView.class)
  @CacheControl(CachePolicy.NO_STORE)
  @NonBlocking
  public Page<Invoice> listInvoices(@Describe("Only invoices in this status") InvoiceStatus status,
      String cursor, @Context Tenant tenant) {
    if (cursor != null && !cursor.matches("INV-\\d+")) {
      throw Page.invalidCursor("is not a position in this listing");
    }
    List<Invoice> all = store.list(tenant, status);
    int from = 0;
    if (cursor != null) {
      // newest first: the page starts after the last id shown, whether or not it still exists
      while (from < all.size() && all.get(from).id().compareTo(cursor) >= 0) {
        from++;
      }
    }
    int to = Math.min(all.size(), from + PAGE_SIZE);
    List<Invoice> rows = all.subList(from, to);
    return to < all.size() ? Page.of(rows, rows.get(rows.size() - 1).id()) : Page.last(rows);
  }

  @Query(description = "Get one invoice", presenter = InvoiceView.class)
  @NonBlocking
  public Invoice getInvoice(@NotBlank @Pattern(regexp = "INV-\\d+") String id,
      @Context Tenant tenant) {
    return store.find(tenant, id).orElseThrow(() -> notFound(id));
  }

  @Mutation(description = "Void an open invoice", presenter = InvoiceView.class)
  @Invalidates("billing.*")
  @Scopes("invoices:write")
  public Invoice voidInvoice(@NotBlank String id, @Context Tenant tenant) {
    Invoice invoice = store.find(tenant, id).orElseThrow(() -> notFound(id));
    if (invoice.status() != InvoiceStatus.OPEN) {
      throw FusionError.conflict("Invoice \"" + id + "\" is " + invoice.status()
              + "; only OPEN invoices can be voided.")
          .recovery("Call billing.get_invoice to check its status; do not void it again.")
          .actions("billing.get_invoice")
          .detail("status", invoice.status());
    }
    Invoice voided = invoice.withStatus(InvoiceStatus.VOID);
    if (!store.replace(invoice, voided)) {
      throw FusionError.conflict("Invoice \"" + id + "\" changed while it was being voided.")
          .recovery("Call billing.get_invoice, then try again if it is still OPEN.")
          .actions("billing.get_invoice");
    }
    return voided;
  }

  /** How a summary should sound. */
  public enum Tone { FRIENDLY, FIRM }

  @Prompt(description = "Summarise the open (unpaid, overdue) invoices for a person",
      presenter = InvoiceView.class)
  public PromptResult overdueInvoices(
      @NotBlank @Describe("Who reads the summary, e.g. the finance team") String audience,
      @Describe("How the summary should sound; friendly unless told") Tone tone,
      @Context Tenant tenant) {
    String how = tone == Tone.FIRM ? "firm and direct" : "friendly";
    return PromptResult.user("Write a " + how + " summary of the open invoices below for "
            + audience + ": how many there are, the total owed, and which to chase first.")
        .data(store.list(tenant, InvoiceStatus.OPEN));
  }

  @Resource(uri = "billing://invoices/{id}", description = "One invoice, as an agent may see it",
      presenter = InvoiceView.class)
  public Invoice invoice(String id, @Context Tenant tenant) {
    return store.find(tenant, id).orElseThrow(() -> notFound(id));
  }

  @Resource(uri = "billing://invoices/open", description = "The open invoices, newest first",
      presenter = InvoiceView.class)
  public List<Invoice> openInvoices(@Context Tenant tenant) {
    return store.list(tenant, InvoiceStatus.OPEN);
  }

  @Complete(resource = "billing://invoices/{id}", argument = "id")
  public List<String> invoiceIds(String prefix, @Context Tenant tenant) {
    return store.list(tenant, null).stream().map(Invoice::id)
        .filter(id -> id.startsWith(prefix.toUpperCase(java.util.Locale.ROOT))).sorted().toList();
  }

  private static FusionError notFound(String id) {
    return FusionError.notFound("Invoice \"" + id + "\" does not exist.")
        .recovery("Call billing.list_invoices first to find valid IDs.")
        .actions("billing.list_invoices")
        .detail("invoice_id", id);
  }
}
