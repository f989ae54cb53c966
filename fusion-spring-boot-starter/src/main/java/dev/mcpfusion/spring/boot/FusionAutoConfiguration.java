package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.CallLimits;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.trace.FusionTracer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Assembles a {@link FusionServer} from the application context: every {@code @Router} bean (and
 * every bound {@code X_Fusion.bind(...)} bean), every {@link ContextProvider} bean, every
 * {@link FusionMiddleware} bean (as the instance {@code @Use} names), a {@link FusionTracer} bean
 * and a {@link FusionMeter} bean if there are ones (Micrometer's: {@link FusionMetricsAutoConfiguration}), the {@code mcpfusion.*} properties, then the {@link FusionServerCustomizer}s.
 *
 * <p>Off with {@code mcpfusion.enabled=false}; backs off when the application defines its own
 * {@code FusionServer} bean (which {@link FusionHttpAutoConfiguration} then serves).
 */
@AutoConfiguration
@ConditionalOnClass(FusionServer.class)
@ConditionalOnProperty(prefix = "mcpfusion", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(FusionProperties.class)
public class FusionAutoConfiguration {

  /** Creates the auto-configuration (Spring does). */
  public FusionAutoConfiguration() {}

  /**
   * The server built from the context's routers and the {@code mcpfusion.*} properties.
   *
   * @throws FusionStartupException naming the bean and the fix when a router bean has no generated
   *     class, two context providers share a type, or {@code FusionServer.build()} refuses the setup
   */
  @Bean
  @ConditionalOnMissingBean
  public FusionServer fusionServer(ConfigurableListableBeanFactory beanFactory,
      FusionProperties properties, Environment environment,
      ObjectProvider<ContextProvider<?>> contextProviders,
      ObjectProvider<FusionMiddleware> middleware, ObjectProvider<FusionTracer> tracer,
      ObjectProvider<FusionMeter> meter, ObjectProvider<FusionServerCustomizer> customizers) {
    String name = properties.getName() != null && !properties.getName().isBlank()
        ? properties.getName()
        : environment.getProperty("spring.application.name", "mcp-fusion");
    FusionServer.Builder builder = FusionServer.builder(name, properties.getVersion())
        .exposition(properties.getExposition())
        .separator(properties.getSeparator())
        .limits(limits(properties.getLimits()));
    ServerAssembly.registerRouters(beanFactory, builder);
    ServerAssembly.registerContextProviders(beanFactory, builder);
    middleware.orderedStream().forEach(builder::provide);
    tracer.ifAvailable(builder::tracer);
    meter.ifAvailable(builder::meter);
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return ServerAssembly.build(builder);
  }

  /** {@code mcpfusion.limits.*} as server-wide {@link CallLimits}; a bad value names its property. */
  static CallLimits limits(FusionProperties.Limits limits) {
    CallLimits result = CallLimits.none();
    if (limits.getMaxConcurrent() != null) {
      result = limit(result, "mcpfusion.limits.max-concurrent",
          r -> r.maxConcurrent(limits.getMaxConcurrent()));
    }
    if (limits.getQueue() != null) {
      result = limit(result, "mcpfusion.limits.queue", r -> r.queue(limits.getQueue()));
    }
    if (limits.getTimeout() != null) {
      result = limit(result, "mcpfusion.limits.timeout", r -> r.timeout(limits.getTimeout()));
    }
    if (limits.getMaxEgressBytes() != null) {
      long bytes = limits.getMaxEgressBytes().toBytes();
      result = limit(result, "mcpfusion.limits.max-egress-bytes",
          r -> r.maxEgressBytes((int) Math.min(bytes, Integer.MAX_VALUE)));
    }
    return result;
  }

  private static CallLimits limit(CallLimits limits, String property,
      java.util.function.UnaryOperator<CallLimits> change) {
    try {
      return change.apply(limits);
    } catch (IllegalArgumentException e) {
      throw new FusionStartupException("Invalid value for " + property + ": " + e.getMessage(),
          "Correct " + property + " in the application properties.", e);
    }
  }
}
