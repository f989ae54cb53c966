package dev.mcpfusion.spring.boot;

import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.spi.GeneratedRouter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/** How beans become builder registrations, with the checks that name the bean at fault. */
final class ServerAssembly {
  private static final Logger log = LoggerFactory.getLogger(ServerAssembly.class);

  /** The fix for a router compiled without the processor, as fusion-core words it. */
  static final String PROCESSOR_FIX = "Add fusion-processor to the maven-compiler-plugin "
      + "annotationProcessorPaths (JDK 23+ no longer runs processors found on the classpath), "
      + "e.g. <annotationProcessorPaths><path><groupId>dev.mcpfusion</groupId>"
      + "<artifactId>fusion-processor</artifactId><version>${fusion.version}</version></path>"
      + "</annotationProcessorPaths> (Gradle: annotationProcessor \"dev.mcpfusion:fusion-processor\"), "
      + "then rebuild so that it generates the class.";

  private ServerAssembly() {}

  /** Registers every {@code @Router} bean and every bound generated router bean. */
  static void registerRouters(ConfigurableListableBeanFactory beanFactory, FusionServer.Builder builder) {
    int routers = 0;
    for (String beanName : beanFactory.getBeanNamesForAnnotation(Router.class)) {
      if (ScopedProxyUtils.isScopedTarget(beanName)) {
        continue; // the scoped proxy under the plain name is registered instead
      }
      Object bean = beanFactory.getBean(beanName);
      checkGenerated(beanName, bean);
      builder.register(bean);
      routers++;
    }
    for (Map.Entry<String, GeneratedRouter> bound : beanFactory.getBeansOfType(GeneratedRouter.class).entrySet()) {
      builder.register(bound.getValue());
      routers++;
    }
    if (routers == 0) {
      log.warn("No @Router bean in the application context: the MCP server has no tools. Annotate "
          + "router classes with @Router and @Component (or declare them as @Bean).");
    }
  }

  /**
   * Fails with the bean's name when its {@code @Router} class has no generated {@code X_Fusion}:
   * fusion-core would name only the class, and the developer is looking at a bean.
   */
  static void checkGenerated(String beanName, Object bean) {
    Class<?> type = bean.getClass();
    while (type != null && !type.isAnnotationPresent(Router.class)) {
      type = type.getSuperclass();
    }
    if (type == null) {
      throw new FusionStartupException("The bean '" + beanName + "' is declared as a @Router, but "
          + "its instance is a " + bean.getClass().getName() + ", which neither is nor extends a "
          + "@Router class (an interface-based proxy?).",
          "Let Spring proxy the router by subclassing (spring.aop.proxy-target-class=true, the Boot "
          + "default) or do not proxy the bean '" + beanName + "'.", null);
    }
    String generated = generatedName(type);
    ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : ClassLoader.getSystemClassLoader();
    try {
      Class.forName(generated, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new FusionStartupException("The @Router bean '" + beanName + "' (" + type.getName()
          + ") has no generated class " + generated + ": the fusion-processor annotation processor "
          + "did not run when " + type.getSimpleName() + " was compiled.", PROCESSOR_FIX, e);
    }
  }

  /** {@code pkg.X_Fusion}, {@code pkg.Outer_Inner_Fusion}: the processor's naming rule. */
  static String generatedName(Class<?> type) {
    String pkg = type.getPackageName();
    String binary = type.getName();
    String local = pkg.isEmpty() ? binary : binary.substring(pkg.length() + 1);
    return (pkg.isEmpty() ? "" : pkg + ".") + local.replace('$', '_') + "_Fusion";
  }

  /** Registers every {@link ContextProvider} bean; two for one type fail naming both beans. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static void registerContextProviders(ConfigurableListableBeanFactory beanFactory,
      FusionServer.Builder builder) {
    Map<Class<?>, String> owners = new LinkedHashMap<>();
    for (Map.Entry<String, ContextProvider> entry : beanFactory.getBeansOfType(ContextProvider.class).entrySet()) {
      String beanName = entry.getKey();
      ContextProvider provider = entry.getValue();
      Class<?> type = provider.type();
      if (type == null) {
        throw new FusionStartupException("The ContextProvider bean '" + beanName + "' returns no type().",
            "Return the context class from type(), or build the bean with ContextProvider.of(Type.class, request -> ...).", null);
      }
      String earlier = owners.putIfAbsent(type, beanName);
      if (earlier != null) {
        throw new FusionStartupException("The ContextProvider beans '" + earlier + "' and '" + beanName
            + "' both provide " + type.getName() + ".",
            "Keep one provider bean per context type (mark the other @ConditionalOnMissingBean, or remove it).", null);
      }
      builder.context((Class) type, request -> provider.provide((dev.mcpfusion.core.RequestContext) request));
    }
  }

  /** {@code builder.build()}, with fusion-core's report turned into Boot's failure report. */
  static FusionServer build(FusionServer.Builder builder) {
    try {
      return builder.build();
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new FusionStartupException("The MCP server cannot be built from the application context.\n"
          + e.getMessage(),
          "Fix each problem listed above: every line names the element at fault and its fix. Here "
          + "the instances the builder takes can be beans: a FusionMiddleware bean is the instance "
          + "@Use(ItsClass.class) gets, a ContextProvider bean provides a @Context type.", e);
    }
  }
}
