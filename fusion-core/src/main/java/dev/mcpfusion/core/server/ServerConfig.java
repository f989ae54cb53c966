package dev.mcpfusion.core.server;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.RequestContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code FusionServer.Builder} collected, frozen for {@link ToolRegistry#build}.
 *
 * @param name the server name
 * @param version the server version
 * @param registrations the routers in registration order: user {@code @Router} instances or
 *     {@link dev.mcpfusion.core.spi.GeneratedRouter}s
 * @param exposition FLAT or GROUPED
 * @param separator the FLAT separator
 * @param providers the typed context providers
 * @param middleware the server-wide middleware, in order
 * @param provided instances for {@code @Use} lookup
 * @param redaction the server-wide redaction default (a view's {@code @Redact} replaces it)
 * @param limits the server-wide call limits, which {@code @Limits} overrides field by field
 * @param toonDescriptions whether GROUPED tool descriptions list their actions as a TOON table
 * @param subscriptionScope the key that decides which subscribed sessions hear of a mutation, or
 *     {@code null}: every subscribed session does
 */
public record ServerConfig(
    String name,
    String version,
    List<Object> registrations,
    Exposition exposition,
    String separator,
    Map<Class<?>, Function<RequestContext, ?>> providers,
    List<FusionMiddleware> middleware,
    List<FusionMiddleware> provided,
    Redaction redaction,
    CallLimits limits,
    boolean toonDescriptions,
    Function<RequestContext, ?> subscriptionScope) {

  public ServerConfig {
    limits = limits == null ? CallLimits.none() : limits;
    registrations = List.copyOf(registrations);
    providers = Collections.unmodifiableMap(new LinkedHashMap<>(providers));
    middleware = List.copyOf(middleware);
    provided = List.copyOf(provided);
    redaction = redaction == null ? Redaction.none() : redaction;
  }

  /** A configuration without a subscription scope. */
  public ServerConfig(String name, String version, List<Object> registrations,
      Exposition exposition, String separator, Map<Class<?>, Function<RequestContext, ?>> providers,
      List<FusionMiddleware> middleware, List<FusionMiddleware> provided, Redaction redaction,
      CallLimits limits, boolean toonDescriptions) {
    this(name, version, registrations, exposition, separator, providers, middleware, provided,
        redaction, limits, toonDescriptions, null);
  }

  /** A configuration whose GROUPED descriptions are text. */
  public ServerConfig(String name, String version, List<Object> registrations,
      Exposition exposition, String separator, Map<Class<?>, Function<RequestContext, ?>> providers,
      List<FusionMiddleware> middleware, List<FusionMiddleware> provided, Redaction redaction,
      CallLimits limits) {
    this(name, version, registrations, exposition, separator, providers, middleware, provided,
        redaction, limits, false);
  }

  /** A configuration without a server-wide redaction default or limits. */
  public ServerConfig(String name, String version, List<Object> registrations,
      Exposition exposition, String separator, Map<Class<?>, Function<RequestContext, ?>> providers,
      List<FusionMiddleware> middleware, List<FusionMiddleware> provided) {
    this(name, version, registrations, exposition, separator, providers, middleware, provided,
        Redaction.none(), CallLimits.none());
  }

  /** A configuration without server-wide limits. */
  public ServerConfig(String name, String version, List<Object> registrations,
      Exposition exposition, String separator, Map<Class<?>, Function<RequestContext, ?>> providers,
      List<FusionMiddleware> middleware, List<FusionMiddleware> provided, Redaction redaction) {
    this(name, version, registrations, exposition, separator, providers, middleware, provided,
        redaction, CallLimits.none());
  }
}
