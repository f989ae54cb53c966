package dev.mcpfusion.outbound.rest;

import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.ProxyUpstream;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import java.util.Map;

/**
 * A REST-backed router that declares where its upstream may be called: plain http on the test's
 * loopback listener only, at most 512 bytes an answer, 2 s a call.
 */
@Router(value = "declared", description = "Invoices of a billing REST API with a declared policy")
@ProxyUpstream(name = "billing-api", hosts = "127.0.0.2", schemes = "http", maxResponseBytes = 512,
    connectTimeoutMs = 2_000, timeoutMs = 2_000)
public abstract class DeclaredInvoiceApi {
  @Query(description = "Get one invoice", presenter = InvoiceView.class)
  @Proxy(upstream = "billing-api", path = "/invoices/{id}")
  public abstract Map<String, Object> getInvoice(String id);
}
