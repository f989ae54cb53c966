package dev.mcpfusion.core.server;

import dev.mcpfusion.core.FusionMiddleware;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Finds or makes the instance for each {@code @Use} class, once per class. */
final class MiddlewareResolver {
  private final ServerConfig config;
  private final List<String> errors;
  private final Map<Class<?>, FusionMiddleware> made = new HashMap<>();

  MiddlewareResolver(ServerConfig config, List<String> errors) {
    this.config = config;
    this.errors = errors;
  }

  FusionMiddleware resolve(Class<?> type, String where) {
    if (!FusionMiddleware.class.isAssignableFrom(type)) {
      errors.add(BuildProblem.NOT_A_MIDDLEWARE.text(type.getSimpleName(), where, type.getName()));
      return null;
    }
    for (List<FusionMiddleware> instances : List.of(config.provided(), config.middleware())) {
      for (FusionMiddleware m : instances) {
        if (m.getClass() == type) {
          return m;
        }
      }
    }
    for (FusionMiddleware m : config.provided()) {
      if (type.isInstance(m)) {
        return m;
      }
    }
    if (made.containsKey(type)) {
      return made.get(type);
    }
    FusionMiddleware m = construct(type, where);
    made.put(type, m);
    return m;
  }

  private FusionMiddleware construct(Class<?> type, String where) {
    String simple = type.getSimpleName();
    if (Modifier.isAbstract(type.getModifiers())) {
      errors.add(BuildProblem.MIDDLEWARE_ABSTRACT.text(simple, where, type.getName()));
      return null;
    }
    Constructor<?> constructor;
    try {
      constructor = type.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      errors.add(BuildProblem.MIDDLEWARE_NO_CONSTRUCTOR.text(simple, where, type.getName()));
      return null;
    }
    try {
      constructor.setAccessible(true);
      return (FusionMiddleware) constructor.newInstance();
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          BuildProblem.MIDDLEWARE_CONSTRUCTOR_FAILED.text(simple, where), e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      errors.add(BuildProblem.MIDDLEWARE_NOT_CONSTRUCTED.text(simple, where, type.getName(),
          e.getClass().getSimpleName()));
      return null;
    }
  }
}
