package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.annotation.Resource;
import dev.mcpfusion.core.spi.GeneratedFeatures;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;

/**
 * Finds and binds the generated {@code X_Features} of a registration, by reflection once at build
 * (the features' counterpart of {@link RouterBinding}).
 */
final class FeatureBinding {
  private FeatureBinding() {}

  /** The generated class name of a class with features: {@code pkg.X_Features}, {@code pkg.Outer_Inner_Features}. */
  static String generatedName(Class<?> type) {
    return RouterBinding.generatedName(type, "_Features");
  }

  /**
   * The generated features class of {@code type} or one of its superclasses (a framework proxy
   * binds as the class it extends), or {@code null} when none has one.
   */
  static Class<?> generatedClass(Class<?> type) {
    for (Class<?> t = type; t != null && t != Object.class; t = t.getSuperclass()) {
      ClassLoader loader = t.getClassLoader() != null ? t.getClassLoader()
          : ClassLoader.getSystemClassLoader();
      try {
        return Class.forName(generatedName(t), true, loader);
      } catch (ClassNotFoundException | LinkageError absent) {
        // not this class: try its superclass
      }
    }
    return null;
  }

  /**
   * The class, {@code type} or a superclass, that declares {@code @Prompt}, {@code @Resource} or
   * {@code @Complete} methods (read from the annotations, which are kept at run time, not from a
   * generated class); {@code null} when none does.
   */
  static Class<?> declaringFeatures(Class<?> type) {
    for (Class<?> t = type; t != null && t != Object.class; t = t.getSuperclass()) {
      for (Method m : t.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Prompt.class) || m.isAnnotationPresent(Resource.class)
            || m.isAnnotationPresent(Complete.class)) {
          return t;
        }
      }
    }
    return null;
  }

  /** Whether {@code type} (or a superclass) has prompts, resources or completions. */
  static boolean hasFeatures(Class<?> type) {
    return type != null && generatedClass(type) != null;
  }

  static GeneratedFeatures bindGenerated(Object target, List<String> errors) {
    if (target instanceof dev.mcpfusion.core.spi.GeneratedRouter) {
      return null;
    }
    Class<?> generated = generatedClass(target.getClass());
    if (generated == null) {
      return null;
    }
    for (Method m : generated.getMethods()) {
      if (m.getName().equals("bind") && Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == 1 && m.getParameterTypes()[0].isInstance(target)
          && GeneratedFeatures.class.isAssignableFrom(m.getReturnType())) {
        try {
          return (GeneratedFeatures) m.invoke(null, target);
        } catch (InvocationTargetException e) {
          throw new IllegalStateException(BuildProblem.BIND_FAILED.text(generated.getName()),
              e.getCause());
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(BuildProblem.BIND_INACCESSIBLE.text(generated.getName()),
              e);
        }
      }
    }
    errors.add(BuildProblem.GENERATED_FEATURES_BIND_MISSING.text(generated.getName(),
        target.getClass().getSimpleName()));
    return null;
  }
}
