package dev.mcpfusion.core;

import java.util.Set;

/**
 * Code that runs around an action after its arguments are validated and before the handler:
 * authentication, tenancy, rate limits, auditing.
 *
 * <p>A middleware may add typed context for the handler ({@code call.with(Tenant.class, t)}), throw
 * a {@link FusionError} (the agent gets it with code, recovery and actions intact), or
 * short-circuit by returning without calling {@code next}; what it returns is presented exactly as
 * the handler's result would be. Register instances on the server builder; {@code @Use} names
 * which apply to a router or action. Order: server-wide, router, method.
 */
@FunctionalInterface
public interface FusionMiddleware {
  /** Runs around the rest of the chain. */
  Object invoke(Invocation call, Chain next) throws Exception;

  /**
   * The context types this middleware adds with {@link Invocation#with}, so that
   * {@code FusionServer.build()} can tell, before any call, that every {@code @Context} parameter
   * of the actions it wraps is provided. A middleware that derives a {@code Principal} from the
   * request declares {@code Set.of(Principal.class)}. Default: none.
   */
  default Set<Class<?>> provides() {
    return Set.of();
  }

  /** The rest of the chain, ending at the handler. */
  @FunctionalInterface
  interface Chain {
    /** Continues with the next middleware, or the handler. */
    Object proceed(Invocation call) throws Exception;
  }
}
