/** One MCP surface over upstream connectors, served through the same edge as any connector. */
module dev.mcpfusion.gateway {
  requires transitive dev.mcpfusion.core;
  requires dev.mcpfusion.wire;
  requires dev.mcpfusion.resilience;
  requires dev.mcpfusion.http;
  requires java.net.http;
  requires org.yaml.snakeyaml;
  requires org.slf4j;

  exports dev.mcpfusion.gateway;
}
