package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.core.RequestContext;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@link Invocation} of one call. Context values come from {@link #with} (middleware), then
 * the request context, then the providers, each provider run at most once and only when its type
 * is first asked for.
 */
final class CallInvocation implements Invocation {
  private final BoundAction action;
  private final String toolName;
  private final Map<String, ?> arguments;
  private Map<String, Object> readOnlyArguments;
  private final RequestContext request;
  private final Map<Class<?>, Function<RequestContext, ?>> providers;
  // The context values set so far, by exact type: a call has a handful at most, so two small
  // arrays searched in order beat a hash map; created by the first with(...) or provider run.
  private Class<?>[] types;
  private Object[] values;
  private int size;

  CallInvocation(BoundAction action, String toolName, Map<String, ?> arguments,
      RequestContext request, Map<Class<?>, Function<RequestContext, ?>> providers) {
    this.action = action;
    this.toolName = toolName;
    this.arguments = arguments;
    this.request = request;
    this.providers = providers;
  }

  @Override
  public String router() {
    return action.router().name();
  }

  @Override
  public String action() {
    return action.name();
  }

  @Override
  public String toolName() {
    return toolName;
  }

  @Override
  public Map<String, Object> arguments() {
    if (readOnlyArguments == null) {
      readOnlyArguments = Collections.unmodifiableMap(arguments);
    }
    return readOnlyArguments;
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
    store(type, value);
    return this;
  }

  @Override
  public <T> Optional<T> get(Class<T> type) {
    int at = indexOf(type);
    if (at >= 0) {
      return Optional.ofNullable(type.cast(values[at]));
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
    store(type, value);
    return Optional.ofNullable(type.cast(value));
  }

  private int indexOf(Class<?> type) {
    for (int i = 0; i < size; i++) {
      if (types[i] == type) {
        return i;
      }
    }
    return -1;
  }

  private void store(Class<?> type, Object value) {
    int at = indexOf(type);
    if (at >= 0) {
      values[at] = value;
      return;
    }
    if (types == null) {
      types = new Class<?>[4];
      values = new Object[4];
    } else if (size == types.length) {
      types = Arrays.copyOf(types, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    types[size] = type;
    values[size] = value;
    size++;
  }
}
