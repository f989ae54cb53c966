package dev.mcpfusion.samples.billing.tools;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.samples.billing.store.Tenant;

/** Refuses billing calls that carry no usable tenant. */
public final class TenantGuard implements FusionMiddleware {
  @Override
  public Object invoke(Invocation call, Chain next) throws Exception {
    Tenant tenant = call.get(Tenant.class).orElse(null);
    if (tenant == null || tenant.id().isBlank()) {
      throw FusionError.of("UNAUTHORIZED", "This call carries no tenant.")
          .recovery("Tell the user to reconnect the billing connector; do not retry.");
    }
    return next.proceed(call);
  }
}
