/**
 * Streamable HTTP for a {@link dev.mcpfusion.core.FusionServer}: {@link dev.mcpfusion.http.FusionHttp}
 * (embedded Jetty or a servlet), {@link dev.mcpfusion.http.HttpOptions} and the hardened edge in
 * front of the MCP Java SDK's session logic.
 */
package dev.mcpfusion.http;
