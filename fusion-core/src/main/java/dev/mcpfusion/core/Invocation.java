package dev.mcpfusion.core;

import java.util.Map;
import java.util.Optional;

/**
 * One validated call on its way through the middleware chain to the handler. Not thread-safe:
 * it belongs to one call.
 */
public interface Invocation {
  /** The router name. */
  String router();

  /** The action name. */
  String action();

  /** The logical reference {@code router.action}. */
  default String reference() {
    return router() + "." + action();
  }

  /** The MCP tool name the agent called. */
  String toolName();

  /** The validated arguments as plain JSON values (read-only; the discriminator removed). */
  Map<String, Object> arguments();

  /** The request context. */
  RequestContext request();

  /** Adds (or replaces) a typed context value for the rest of the chain and the handler. */
  <T> Invocation with(Class<T> type, T value);

  /** A typed context value: from a provider, from earlier middleware, or the request context. */
  <T> Optional<T> get(Class<T> type);
}
