/** Micrometer adapter for the fusion-core metrics SPI. */
module dev.mcpfusion.micrometer {
  requires transitive dev.mcpfusion.core;
  // MicrometerFusionMeter is built from a MeterRegistry.
  requires transitive micrometer.core;

  exports dev.mcpfusion.micrometer;
}
