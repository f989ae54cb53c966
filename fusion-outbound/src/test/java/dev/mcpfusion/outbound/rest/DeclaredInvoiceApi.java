package dev.mcpfusion.outbound.rest;

import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.ProxyUpstream;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import java.util.Map;

/**
 * A REST-backed router that declares where its upstream may be called: plain http on the test's
 * loopback listener only, at most 512 bytes an answer; its timeouts are wider than the client's
 * defaults (5 s to connect, 30 s a call), so those apply.
 */
@Router(value = "declared", description = "Invoices of a billing REST API with a declared policy")
@ProxyUpstream(name = "billing-api", hosts = "127.0.0.2", schemes = "http", maxResponseBytes = 512,
    connectTimeoutMs = 20_000, timeoutMs = 60_000)
public abstract class DeclaredInvoiceApi {
  @Query(description = "Get one invoice", presenter = InvoiceView.class)
  @Proxy(upstream = "billing-api", path = "/invoices/{id}")
  public abstract Map<String, Object> getInvoice(String id);

  /** The same upstream declared with a 1 s deadline, shorter than the client's 30 s. */
  @Router(value = "hurried", description = "Invoices of a billing REST API, with a short declared deadline")
  @ProxyUpstream(name = "billing-api", hosts = "127.0.0.2", schemes = "http", timeoutMs = 1_000)
  public abstract static class Hurried {
    @Query(description = "Get one invoice", presenter = InvoiceView.class)
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    public abstract Map<String, Object> getInvoice(String id);
  }
}
