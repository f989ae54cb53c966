/**
 * The capability lockfile: contract, canonical writer and drift rules. Build-time code for the
 * Maven plugin and the tester; a running server never loads it.
 */
module dev.mcpfusion.lock {
  // Contract.of(...) takes the generated descriptors of fusion-core's spi.
  requires transitive dev.mcpfusion.core;
  requires dev.mcpfusion.wire;
  // A router's workflow states and tags, read as the server reads them.
  requires dev.mcpfusion.surface;

  exports dev.mcpfusion.lock;
}
