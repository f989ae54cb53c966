package dev.mcpfusion.lock;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.Redaction;
import java.util.List;
import java.util.Objects;

/**
 * The serving options that shape what an agent can reach but that the generated classes cannot
 * know: how routers become tools and which server-wide middleware runs first.
 *
 * <p>A connector declares it in a class of its own with {@code public static LockProfile
 * lockProfile()} (a method that builds no stores and opens no connections), named by the build's
 * {@code profileClass}; without one, {@link #defaults()} applies.
 *
 * <p>The server-wide limits ({@code FusionServer.Builder.limits}) are resolved with each router's
 * and method's {@code @Limits} into each action's {@code limits} object of the lockfile, where
 * {@link Drift} classifies every named limit (added or tightened: SAFE; removed or loosened: RISKY).
 *
 * @param exposition FLAT (one tool per action) or GROUPED (one tool per router)
 * @param separator the FLAT separator between router and action name: {@code "_"} or {@code "-"}
 * @param middleware the server-wide middleware class names, in the order they run
 * @param redaction the server-wide redaction ({@code FusionServer.Builder.redact}); a view's
 *     {@code @Redact} replaces it for the actions presenting that view
 * @param limits the server-wide call limits ({@code FusionServer.Builder.limits})
 */
public record LockProfile(Exposition exposition, String separator, List<String> middleware,
    Redaction redaction, CallLimits limits) {

  public LockProfile {
    Objects.requireNonNull(exposition, "exposition");
    Objects.requireNonNull(separator, "separator");
    if (!separator.equals("_") && !separator.equals("-")) {
      throw new IllegalArgumentException(
          "separator must be \"_\" or \"-\" (MCP tool names allow no other), but was \""
              + separator + "\"");
    }
    middleware = List.copyOf(middleware);
    redaction = redaction == null ? Redaction.none() : redaction;
    limits = limits == null ? CallLimits.none() : limits;
  }

  /** A profile without a server-wide redaction or limits. */
  public LockProfile(Exposition exposition, String separator, List<String> middleware) {
    this(exposition, separator, middleware, Redaction.none(), CallLimits.none());
  }

  /** A profile without server-wide limits. */
  public LockProfile(Exposition exposition, String separator, List<String> middleware,
      Redaction redaction) {
    this(exposition, separator, middleware, redaction, CallLimits.none());
  }

  /** A profile with the same options and this server-wide redaction. */
  public LockProfile withRedaction(Redaction redaction) {
    return new LockProfile(exposition, separator, middleware, redaction, limits);
  }

  /** A profile with the same options and these server-wide limits. */
  public LockProfile withLimits(CallLimits limits) {
    return new LockProfile(exposition, separator, middleware, redaction, limits);
  }

  /** FLAT exposition, separator {@code "_"}, no server-wide middleware: the server builder's defaults. */
  public static LockProfile defaults() {
    return new LockProfile(Exposition.FLAT, "_", List.of());
  }

  /** A profile with the same options and these server-wide middleware classes, in order. */
  public LockProfile withMiddleware(Class<?>... classes) {
    return new LockProfile(exposition, separator,
        java.util.Arrays.stream(classes).map(Class::getName).toList(), redaction, limits);
  }
}
