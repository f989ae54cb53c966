/**
 * Spring Boot auto-configuration for MCP Fusion: {@code @Router} beans become a
 * {@link dev.mcpfusion.core.FusionServer}, served over Streamable HTTP (and the stateless
 * 2026-07-28 protocol) at {@code /mcp} on the Boot web server by fusion-http's servlet, configured
 * with {@code mcpfusion.*} properties ({@link dev.mcpfusion.spring.boot.FusionProperties}).
 */
package dev.mcpfusion.spring.boot;
