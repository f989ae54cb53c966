package dev.mcpfusion.gateway;

import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.FusionSpi;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.Problems;
import java.util.Map;

/**
 * A router the gateway writes by hand: each action takes its arguments as sent (the pipeline has
 * checked them against the action's input schema) and runs in the caller's gateway session.
 */
abstract class SessionRouter implements GeneratedRouter {
  private final CallerSessions sessions;

  SessionRouter(CallerSessions sessions) {
    this.sessions = sessions;
  }

  @Override
  public final int spiVersion() {
    return FusionSpi.VERSION;
  }

  @Override
  public final Object[] decode(int action, Map<String, ?> arguments, Problems problems) {
    return new Object[] {arguments};
  }

  @Override
  public final Object invoke(int action, Object[] arguments, ContextLookup context) {
    RequestContext request = context.get(RequestContext.class);
    @SuppressWarnings("unchecked")
    Map<String, ?> args = (Map<String, ?>) arguments[0];
    return call(action, args, request, sessions.enter(request));
  }

  /** Runs action number {@code action} of this router for the caller of {@code request}. */
  abstract Object call(int action, Map<String, ?> arguments, RequestContext request,
      CallerSessions.Session session);
}
