package dev.mcpfusion.lock;

import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads router descriptors from compiled classes without instantiating anything of the user's:
 * for every generated {@code X_Fusion} it calls the static {@code describe()} (a router class
 * written by hand in the generated shape may offer only a static {@code DESCRIPTOR} field, which
 * is read instead). Loading
 * {@code X_Fusion} runs only generated code; the user's router class is named by a class literal,
 * which loads it without running its static initialiser, and no constructor is called.
 *
 * <p>For build tools: reflection is the point here, and none of it is on a server's call path.
 */
public final class ContractLoader {
  private static final String SUFFIX = "_Fusion.class";
  private static final String FEATURES_SUFFIX = "_Features.class";

  private ContractLoader() {}

  /**
   * A class loader over {@code classpath} (the compiled classes first, then the dependencies) that
   * takes {@code dev.mcpfusion.core}, {@code dev.mcpfusion.lock} and {@code dev.mcpfusion.annotation}
   * from {@code fusion}, so the descriptors and the {@link LockProfile} it yields are instances of the
   * caller's own classes; everything else comes
   * from {@code classpath} or the platform.
   */
  public static URLClassLoader classLoader(List<Path> classpath, ClassLoader fusion) {
    URL[] urls = new URL[classpath.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = classpath.get(i).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("Not a class path entry: " + classpath.get(i), e);
      }
    }
    return new URLClassLoader("mcpfusion-lock", urls, new SharedFusion(fusion));
  }

  /** The binary names of the generated routers under {@code classesDir}, sorted. */
  public static List<String> generatedRouters(Path classesDir) {
    return generated(classesDir, SUFFIX);
  }

  private static List<String> generated(Path classesDir, String suffix) {
    if (!Files.isDirectory(classesDir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(classesDir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(suffix))
          .map(f -> classesDir.relativize(f).toString().replace('\\', '/'))
          .filter(rel -> !rel.contains("$"))
          .map(rel -> rel.substring(0, rel.length() - ".class".length()).replace('/', '.'))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot scan " + classesDir, e);
    }
  }

  /**
   * The descriptors of every generated router under {@code classesDir}, loaded through
   * {@code loader} (which must see {@code classesDir}), in class-name order.
   *
   * @throws IllegalStateException naming the class when a generated router yields no descriptor
   */
  public static List<RouterDescriptor> load(Path classesDir, ClassLoader loader) {
    List<RouterDescriptor> out = new ArrayList<>();
    for (String name : generatedRouters(classesDir)) {
      Class<?> type;
      try {
        type = Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new IllegalStateException("Cannot load generated router " + name
            + " (is the dependency class path complete?): " + e, e);
      }
      if (!dev.mcpfusion.core.spi.GeneratedRouter.class.isAssignableFrom(type)) {
        continue; // a user class whose name merely ends in _Fusion
      }
      out.add(describe(type));
    }
    return out;
  }

  /**
   * The descriptors of the prompts, resources and completions of every generated
   * {@code X_Features} under {@code classesDir}, loaded through {@code loader}, in class-name order.
   */
  public static List<FeaturesDescriptor> loadFeatures(Path classesDir, ClassLoader loader) {
    List<FeaturesDescriptor> out = new ArrayList<>();
    for (String name : generated(classesDir, FEATURES_SUFFIX)) {
      Class<?> type;
      try {
        type = Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new IllegalStateException("Cannot load generated features " + name
            + " (is the dependency class path complete?): " + e, e);
      }
      if (dev.mcpfusion.core.spi.GeneratedFeatures.class.isAssignableFrom(type)) {
        out.add(describeFeatures(type));
      }
    }
    return out;
  }

  /**
   * The prompts, resources and completions of {@code type}, read from its generated
   * {@code X_Features} in the same class loader (nothing instantiated); empty when it has none.
   */
  public static java.util.Optional<FeaturesDescriptor> featuresOf(Class<?> type) {
    String pkg = type.getPackageName();
    String simple = type.getName().substring(pkg.isEmpty() ? 0 : pkg.length() + 1).replace('$', '_');
    String name = (pkg.isEmpty() ? "" : pkg + ".") + simple + "_Features";
    try {
      return java.util.Optional.of(describeFeatures(Class.forName(name, false, type.getClassLoader())));
    } catch (ClassNotFoundException absent) {
      return java.util.Optional.empty();
    }
  }

  private static FeaturesDescriptor describeFeatures(Class<?> generated) {
    try {
      Object value = generated.getMethod("describe").invoke(null);
      if (value instanceof FeaturesDescriptor d) {
        return d;
      }
      throw new IllegalStateException(generated.getName() + " yielded " + value
          + " instead of a FeaturesDescriptor of this fusion-core (mismatched fusion-core versions?)");
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalStateException("Cannot call " + generated.getName() + ".describe(): " + e, e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(generated.getName() + ".describe() failed: " + e.getCause(),
          e.getCause());
    } catch (ExceptionInInitializerError e) {
      throw new IllegalStateException("Initialising " + generated.getName() + " failed: "
          + e.getCause(), e);
    }
  }

  /**
   * The descriptor of a {@code @Router} class, read from its generated {@code X_Fusion} (nested:
   * {@code Outer_Inner_Fusion}) in the same class loader; {@code routerType} is neither initialised
   * nor instantiated. For tests that check the lockfile without a build tool.
   *
   * @throws IllegalStateException when the generated class is missing (the processor did not run)
   */
  public static RouterDescriptor describeRouter(Class<?> routerType) {
    String pkg = routerType.getPackageName();
    String simple = routerType.getName().substring(pkg.isEmpty() ? 0 : pkg.length() + 1).replace('$', '_');
    String name = (pkg.isEmpty() ? "" : pkg + ".") + simple + "_Fusion";
    try {
      return describe(Class.forName(name, false, routerType.getClassLoader()));
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("No generated " + name + " for " + routerType.getName()
          + ": add fusion-processor to the maven-compiler-plugin annotationProcessorPaths", e);
    }
  }

  /** The descriptor of one generated router class, from {@code describe()} or the {@code DESCRIPTOR} field. */
  public static RouterDescriptor describe(Class<?> generated) {
    Object value;
    try {
      Method describe = generated.getMethod("describe");
      if (!Modifier.isStatic(describe.getModifiers())) {
        throw new IllegalStateException(generated.getName() + ".describe() is not static");
      }
      value = describe.invoke(null);
    } catch (NoSuchMethodException absent) {
      value = descriptorField(generated);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot call " + generated.getName() + ".describe(): " + e, e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(generated.getName() + ".describe() failed: " + e.getCause(), e.getCause());
    } catch (ExceptionInInitializerError e) {
      throw new IllegalStateException("Initialising " + generated.getName() + " failed: " + e.getCause(), e);
    }
    if (!(value instanceof RouterDescriptor descriptor)) {
      throw new IllegalStateException(generated.getName() + " yielded " + value
          + " instead of a RouterDescriptor of this fusion-core (mismatched fusion-core versions?)");
    }
    return descriptor;
  }

  private static Object descriptorField(Class<?> generated) {
    try {
      Field field = generated.getDeclaredField("DESCRIPTOR");
      if (!Modifier.isStatic(field.getModifiers())) {
        throw new IllegalStateException(generated.getName() + ".DESCRIPTOR is not static");
      }
      field.setAccessible(true);
      return field.get(null);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(generated.getName() + " has neither a static describe() nor a"
          + " DESCRIPTOR field: recompile it with the fusion-processor of this version", e);
    } catch (IllegalAccessException | RuntimeException e) {
      throw new IllegalStateException("Cannot read " + generated.getName() + ".DESCRIPTOR: " + e, e);
    } catch (ExceptionInInitializerError e) {
      throw new IllegalStateException("Initialising " + generated.getName() + " failed: " + e.getCause(), e);
    }
  }

  /**
   * The serving profile: {@code profileClass.lockProfile()} (a {@code public static} method
   * returning {@link LockProfile}), or {@link LockProfile#defaults()} when {@code profileClass} is
   * {@code null} or blank.
   */
  public static LockProfile profile(String profileClass, ClassLoader loader) {
    if (profileClass == null || profileClass.isBlank()) {
      return LockProfile.defaults();
    }
    try {
      Class<?> type = Class.forName(profileClass.strip(), true, loader);
      Method m = type.getMethod("lockProfile");
      if (!Modifier.isStatic(m.getModifiers()) || !LockProfile.class.isAssignableFrom(m.getReturnType())) {
        throw new IllegalStateException(profileClass + ".lockProfile() must be"
            + " \"public static LockProfile lockProfile()\"");
      }
      Object profile = m.invoke(null);
      if (profile == null) {
        throw new IllegalStateException(profileClass + ".lockProfile() returned null");
      }
      return (LockProfile) profile;
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("profileClass " + profileClass + " is not on the class path", e);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(profileClass + " has no \"public static LockProfile lockProfile()\"", e);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot call " + profileClass + ".lockProfile(): " + e, e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(profileClass + ".lockProfile() failed: " + e.getCause(), e.getCause());
    }
  }

  /** Loads the framework's own packages from the caller, hiding everything else of the caller's. */
  private static final class SharedFusion extends ClassLoader {
    private final ClassLoader fusion;

    SharedFusion(ClassLoader fusion) {
      super("mcpfusion-shared", ClassLoader.getPlatformClassLoader());
      this.fusion = fusion;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("dev.mcpfusion.core.") || name.startsWith("dev.mcpfusion.lock.")
          || name.startsWith("dev.mcpfusion.annotation.")) {
        return fusion.loadClass(name);
      }
      return super.loadClass(name, resolve);
    }
  }
}
