/**
 * The stateless 2026-07-28 protocol (the MCP Java SDK's {@code modern} API) over the same registry,
 * pipeline and edge as the classic 2024-11-05 … 2025-11-25 sessions.
 * {@link dev.mcpfusion.core.modern.ModernEra#isModernRequest} is the routing rule every transport
 * applies: a request whose {@code params._meta} carries {@code io.modelcontextprotocol/protocolVersion},
 * or a {@code server/discover}, goes to {@link dev.mcpfusion.core.modern.ModernEra#handle}; anything
 * else to the classic SDK session.
 */
package dev.mcpfusion.core.modern;
