package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.micrometer.MicrometerFusionMeter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The MCP metrics go to the context's Micrometer registry, unless turned off or replaced. */
class FusionMetricsAutoConfigurationTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(FusionMetricsAutoConfiguration.class));

  @Test
  void aRegistryInTheContextGetsTheMetrics() {
    runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> assertThat(context.getBean(FusionMeter.class))
            .isInstanceOf(MicrometerFusionMeter.class));
  }

  @Test
  void withoutARegistryTheMeterIsTheNoop() {
    runner.run(context -> assertThat(context.getBean(FusionMeter.class)).isSameAs(FusionMeter.NOOP));
  }

  @Test
  void thePropertyTurnsItOff() {
    runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues("mcpfusion.metrics.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(FusionMeter.class));
  }

  @Test
  void anApplicationMeterWins() {
    runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(FusionMeter.class, () -> FusionMeter.NOOP)
        .run(context -> assertThat(context.getBean(FusionMeter.class)).isSameAs(FusionMeter.NOOP));
  }
}
