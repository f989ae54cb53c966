package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.FusionSpi;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * Binds what the user registered to its generated router ({@code X_Fusion.bind}), by reflection
 * once at build, and finds what Bean Validation and {@code @Limits} need of the user's methods.
 */
final class RouterBinding {
  private RouterBinding() {}

  /** A registration that has prompts, resources or completions but no {@code @Router} tools. */
  static boolean featuresOnly(Object registration) {
    if (registration instanceof dev.mcpfusion.core.spi.GeneratedFeatures) {
      return true;
    }
    if (registration instanceof GeneratedRouter) {
      return false;
    }
    for (Class<?> t = registration.getClass(); t != null; t = t.getSuperclass()) {
      if (t.isAnnotationPresent(Router.class)) {
        return false;
      }
    }
    return FeatureBinding.hasFeatures(registration.getClass());
  }

  static BoundRouter bind(Object registration, List<String> errors) {
    GeneratedRouter router;
    Object target = null;
    if (registration instanceof GeneratedRouter generated) {
      router = generated;
    } else {
      target = registration;
      router = bindGenerated(registration, errors);
      if (router == null) {
        return null;
      }
    }
    RouterDescriptor descriptor = router.descriptor();
    if (router.spiVersion() != FusionSpi.VERSION) {
      errors.add(BuildProblem.ROUTER_SPI_MISMATCH.text(router.getClass().getName(),
          router.spiVersion(), FusionSpi.VERSION));
      return null;
    }
    return new BoundRouter(router, descriptor, target);
  }

  /** The generated class name of a {@code @Router} class: {@code pkg.X_Fusion}, {@code pkg.Outer_Inner_Fusion}. */
  static String generatedName(Class<?> type) {
    return generatedName(type, "_Fusion");
  }

  /** The name of the class the processor generates for {@code type}: its nesting joined by {@code _}, then {@code suffix}. */
  static String generatedName(Class<?> type, String suffix) {
    String pkg = type.getPackageName();
    String binary = type.getName();
    String local = pkg.isEmpty() ? binary : binary.substring(pkg.length() + 1);
    return (pkg.isEmpty() ? "" : pkg + ".") + local.replace('$', '_') + suffix;
  }

  static GeneratedRouter bindGenerated(Object target, List<String> errors) {
    // A subclass (a framework proxy, say) of a @Router class binds as that class.
    Class<?> type = target.getClass();
    while (type != null && !type.isAnnotationPresent(Router.class)) {
      type = type.getSuperclass();
    }
    if (type == null) {
      // Prompts, resources and completions without their generated class: the processor did not
      // run, and annotating the class @Router would not help.
      Class<?> features = FeatureBinding.declaringFeatures(target.getClass());
      errors.add(features != null
          ? BuildProblem.GENERATED_FEATURES_MISSING.text(FeatureBinding.generatedName(features),
              features.getName())
          : BuildProblem.NOT_A_ROUTER.text(target.getClass().getName()));
      return null;
    }
    String name = generatedName(type);
    ClassLoader loader = type.getClassLoader() != null
        ? type.getClassLoader()
        : ClassLoader.getSystemClassLoader();
    Class<?> generated;
    try {
      generated = Class.forName(name, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      errors.add(BuildProblem.GENERATED_CLASS_MISSING.text(name, type.getName()));
      return null;
    }
    Method bind = null;
    for (Method m : generated.getMethods()) {
      if (m.getName().equals("bind") && Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == 1 && m.getParameterTypes()[0].isAssignableFrom(type)
          && GeneratedRouter.class.isAssignableFrom(m.getReturnType())) {
        bind = m;
        break;
      }
    }
    if (bind == null) {
      errors.add(BuildProblem.GENERATED_BIND_MISSING.text(name, type.getSimpleName()));
      return null;
    }
    try {
      return (GeneratedRouter) bind.invoke(null, target);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(BuildProblem.BIND_FAILED.text(name), e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(BuildProblem.BIND_INACCESSIBLE.text(name), e);
    }
  }

  /** The action's method, for its {@code @Limits}; {@code null} when it cannot be found. */
  static Method actionMethod(RouterDescriptor router, ActionDescriptor action) {
    try {
      return router.routerType().getDeclaredMethod(action.methodName(),
          action.parameterTypes().toArray(new Class<?>[0]));
    } catch (NoSuchMethodException | SecurityException e) {
      return null;
    }
  }

  static ExecutableTarget executableTarget(BoundRouter router, ActionDescriptor action,
      String where, List<String> errors) {
    if (router.target() == null) {
      errors.add(BuildProblem.BEAN_VALIDATION_NEEDS_INSTANCE.text(where, typeName(router)));
      return null;
    }
    Method method;
    try {
      method = router.descriptor().routerType().getDeclaredMethod(action.methodName(),
          action.parameterTypes().toArray(new Class<?>[0]));
    } catch (NoSuchMethodException e) {
      errors.add(BuildProblem.GENERATED_METHOD_MISSING.text(where, action.parameterTypes()));
      return null;
    }
    List<String> commonNames = new ArrayList<>();
    for (FieldDescriptor common : router.descriptor().commonFields()) {
      commonNames.add(common.name());
    }
    List<String> ownFields = new ArrayList<>();
    for (FieldDescriptor field : action.fields()) {
      if (!field.common()) {
        ownFields.add(field.name());
      }
    }
    List<String> slots = new ArrayList<>();
    int next = 0;
    for (Parameter parameter : method.getParameters()) {
      Class<?> type = parameter.getType();
      if (parameter.isAnnotationPresent(Context.class) || type == RequestContext.class) {
        slots.add(null);
      } else if (!commonNames.isEmpty() && type.isRecord() && componentNames(type).equals(commonNames)) {
        slots.add(ExecutableTarget.COMMON);
      } else {
        slots.add(next < ownFields.size() ? ownFields.get(next++) : parameter.getName());
      }
    }
    return new ExecutableTarget(router.target(), method, slots);
  }

  static List<String> componentNames(Class<?> record) {
    List<String> names = new ArrayList<>();
    for (RecordComponent component : record.getRecordComponents()) {
      names.add(component.getName());
    }
    return names;
  }

  static String typeName(BoundRouter router) {
    Class<?> type = router.descriptor().routerType();
    return type == null ? router.name() : type.getSimpleName();
  }
}
