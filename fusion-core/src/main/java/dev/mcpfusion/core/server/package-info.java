/**
 * The runtime behind {@link dev.mcpfusion.core.FusionServer}: the frozen tool table and its
 * build-time checks ({@link dev.mcpfusion.core.server.ToolRegistry}), FLAT and GROUPED exposition
 * ({@link dev.mcpfusion.core.server.Exposer}), the call pipeline
 * ({@link dev.mcpfusion.core.server.Pipeline}) and the shared JSON settings
 * ({@link dev.mcpfusion.core.server.McpJson}).
 *
 * <p>Internal: public only so {@code FusionServer} and the framework's own transports can reach
 * it (the module exports it to nobody). Users build servers with {@code FusionServer.builder(...)}; nothing here is API.
 */
package dev.mcpfusion.core.server;
