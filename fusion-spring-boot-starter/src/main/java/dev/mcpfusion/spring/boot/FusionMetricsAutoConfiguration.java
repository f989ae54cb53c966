package dev.mcpfusion.spring.boot;

import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.micrometer.MicrometerFusionMeter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Records the server's metrics ({@code mcp.server.operation.duration},
 * {@code mcp.server.session.duration}, the guard counters) in the context's Micrometer
 * {@link MeterRegistry}, so that Boot's actuator shows them ({@code /actuator/prometheus} with
 * {@code micrometer-registry-prometheus}). Active when Micrometer is on the class path; off with
 * {@code mcpfusion.metrics.enabled=false}; backs off when the application defines its own
 * {@link FusionMeter} bean.
 */
@AutoConfiguration(before = FusionAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, MicrometerFusionMeter.class})
@ConditionalOnProperty(prefix = "mcpfusion.metrics", name = "enabled", havingValue = "true",
    matchIfMissing = true)
public class FusionMetricsAutoConfiguration {

  /** Creates the auto-configuration (Spring does). */
  public FusionMetricsAutoConfiguration() {}

  /**
   * The meter over the context's registry; {@link FusionMeter#NOOP} when the context has none (no
   * metrics work on the call path then).
   */
  @Bean
  @ConditionalOnMissingBean
  public FusionMeter fusionMeter(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry available = registry.getIfAvailable();
    return available == null ? FusionMeter.NOOP : MicrometerFusionMeter.of(available);
  }
}
