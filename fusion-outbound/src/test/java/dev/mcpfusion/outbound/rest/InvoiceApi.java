package dev.mcpfusion.outbound.rest;

import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.ProxyUpstream;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import java.util.List;
import java.util.Map;

/**
 * A REST-backed router without handler code: the processor writes InvoiceApi_Proxy. Its upstream
 * is the test's plain-http loopback listener; the declaration's 1 MiB cap is above the client's.
 */
@Router(value = "invoices", description = "Invoices of the billing REST API")
@ProxyUpstream(name = "billing-api", hosts = "127.0.0.2", schemes = "http")
public abstract class InvoiceApi {
  /** The states an invoice can be listed by. */
  public enum Status { OPEN, PAID, VOID }

  @Query(description = "Get one invoice", presenter = InvoiceView.class)
  @Proxy(upstream = "billing-api", path = "/invoices/{id}")
  public abstract Map<String, Object> getInvoice(String id);

  @Query(description = "List a customer's invoices", presenter = InvoiceView.class)
  @Proxy(upstream = "billing-api", path = "/customers/{customer}/invoices")
  public abstract List<Map<String, Object>> listInvoices(String customer, Status status, Integer limit);

  @Mutation(description = "Void an invoice", presenter = InvoiceView.class)
  @Proxy(upstream = "billing-api", method = "POST", path = "/invoices/{id}/void")
  public abstract Map<String, Object> voidInvoice(String id, String reason);
}
