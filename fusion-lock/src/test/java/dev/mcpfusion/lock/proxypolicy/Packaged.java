package dev.mcpfusion.lock.proxypolicy;

import dev.mcpfusion.annotation.Proxy;
import dev.mcpfusion.annotation.ProxyUpstream;
import java.util.Map;

/** A proxy router whose upstream policy is its package's. */
public abstract class Packaged {
  @Proxy(upstream = "billing-api", path = "/invoices/{id}")
  abstract Map<String, Object> get_invoice();

  /** The same router declaring the name itself: its declaration replaces the package's. */
  @ProxyUpstream(name = "billing-api", hosts = "eu.billing.example.com")
  public abstract static class Overriding {
    @Proxy(upstream = "billing-api", path = "/invoices/{id}")
    abstract Map<String, Object> get_invoice();
  }
}
