package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.core.RequestContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@link Invocation} of one prompt, resource read or completion, seen by the same middleware
 * as the tools of its class: {@link #router()} is the class's router, {@link #action()} the prompt
 * or resource name, {@link #toolName()} the prompt name or the URI read. Context values come from
 * {@link #with} (middleware), then the request context, then the providers, each provider run at
 * most once and only when its type is first asked for.
 */
final class FeatureInvocation implements Invocation {
  private final String router;
  private final String action;
  private final String target;
  private final Map<String, Object> arguments;
  private final RequestContext request;
  private final Map<Class<?>, Function<RequestContext, ?>> providers;
  private final Map<Class<?>, Object> values = new LinkedHashMap<>();

  FeatureInvocation(String router, String action, String target, Map<String, ?> arguments,
      RequestContext request, Map<Class<?>, Function<RequestContext, ?>> providers) {
    this.router = router;
    this.action = action;
    this.target = target;
    this.arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    this.request = request;
    this.providers = providers;
  }

  @Override
  public String router() {
    return router;
  }

  @Override
  public String action() {
    return action;
  }

  @Override
  public String toolName() {
    return target;
  }

  @Override
  public Map<String, Object> arguments() {
    return arguments;
  }

  @Override
  public RequestContext request() {
    return request;
  }

  @Override
  public <T> Invocation with(Class<T> type, T value) {
    Objects.requireNonNull(type, "type");
    if (value != null && !type.isInstance(value)) {
      throw new IllegalArgumentException(
          "A " + value.getClass().getName() + " is not a " + type.getName());
    }
    values.put(type, value);
    return this;
  }

  @Override
  public <T> Optional<T> get(Class<T> type) {
    if (values.containsKey(type)) {
      return Optional.ofNullable(type.cast(values.get(type)));
    }
    if (type == RequestContext.class) {
      return Optional.of(type.cast(request));
    }
    if (type == Caller.class) {
      return Optional.of(type.cast(request.caller()));
    }
    Function<RequestContext, ?> provider = providers.get(type);
    if (provider == null) {
      return Optional.empty();
    }
    Object value = provider.apply(request);
    values.put(type, value);
    return Optional.ofNullable(type.cast(value));
  }
}
