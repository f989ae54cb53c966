package dev.mcpfusion.samples.billing.store;

import dev.mcpfusion.core.RequestContext;
import java.util.Objects;

/**
 * The tenant a request acts for. It comes from the request (an {@code x-tenant-id} header or the
 * {@code tenant} key of {@code params._meta}), never from tool arguments.
 *
 * @param id the tenant id
 */
public record Tenant(String id) {
  /** The tenant every sample invoice belongs to. */
  public static final String SAMPLE_TENANT = "t_777";

  public Tenant {
    Objects.requireNonNull(id, "id");
  }

  /**
   * The tenant of a request: the {@code x-tenant-id} header, else {@code _meta.tenant}, else the
   * sample tenant (the sample serves one tenant by default).
   */
  public static Tenant from(RequestContext request) {
    return request.header("x-tenant-id")
        .or(() -> {
          Object meta = request.meta().get("tenant");
          return meta instanceof String s ? java.util.Optional.of(s) : java.util.Optional.empty();
        })
        .map(Tenant::new)
        .orElse(new Tenant(SAMPLE_TENANT));
  }
}
