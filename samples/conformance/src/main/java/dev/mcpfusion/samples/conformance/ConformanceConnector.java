package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.core.FusionServer;

/** The conformance connector's server: its routers, FLAT exposition (tool names as the suite spells them). */
public final class ConformanceConnector {
  private ConformanceConnector() {}

  /** A builder with every router of the connector registered. */
  public static FusionServer.Builder builder() {
    return FusionServer.builder("mcp-conformance-test-server", "1.0.0")
        .register(new ConformanceTools())
        .register(new JsonSchemaTools())
        .register(new ConformanceFeatures())
        .register(new TaskFixtures());
  }
}
