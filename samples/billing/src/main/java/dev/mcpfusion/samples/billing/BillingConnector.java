package dev.mcpfusion.samples.billing;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.billing.store.Tenant;
import dev.mcpfusion.samples.billing.tools.BillingTools;
import dev.mcpfusion.samples.billing.tools.TenantGuard;

/** How the billing connector is assembled: one place for the server, the tests and the lockfile. */
public final class BillingConnector {
  private BillingConnector() {}

  /** The server builder over a store, in the given exposition. */
  public static FusionServer.Builder builder(InvoiceStore store, Exposition exposition) {
    return FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools(store))
        .exposition(exposition)
        .provide(new TenantGuard())
        .context(Tenant.class, Tenant::from)
        // One tenant's changes are announced only to that tenant's subscribed sessions.
        .subscriptionScope(Tenant::from);
  }
}
