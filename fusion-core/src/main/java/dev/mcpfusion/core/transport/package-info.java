/**
 * The stdio transport ({@link dev.mcpfusion.core.transport.StdioTransport}): newline-delimited
 * JSON-RPC framed for the edge, behind {@code FusionServer.serveStdio()}.
 *
 * <p>Framework-internal: the module exports it to nobody.
 */
package dev.mcpfusion.core.transport;
