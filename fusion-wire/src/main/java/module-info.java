/**
 * The wire vocabulary and deterministic JSON, below the runtime: every text an agent or a client
 * program reads is spelled here once, and the runtime, the transports, the lockfile and the tester
 * write through it. Nothing here knows the runtime, the MCP SDK or a transport.
 */
module dev.mcpfusion.wire {
  requires tools.jackson.core;
  requires tools.jackson.databind;

  exports dev.mcpfusion.wire
      to dev.mcpfusion.redact, dev.mcpfusion.core, dev.mcpfusion.http, dev.mcpfusion.testing,
          dev.mcpfusion.lock, dev.mcpfusion.resilience, dev.mcpfusion.outbound,
          dev.mcpfusion.redis, dev.mcpfusion.gateway, dev.mcpfusion.surface, dev.mcpfusion.cards;
  // The 2026-07-28 input-required state the edge seals and opens.
  exports dev.mcpfusion.wire.input to dev.mcpfusion.core;
  exports dev.mcpfusion.json
      to dev.mcpfusion.redact, dev.mcpfusion.core, dev.mcpfusion.http, dev.mcpfusion.testing,
          dev.mcpfusion.lock,
          dev.mcpfusion.redis, dev.mcpfusion.gateway, dev.mcpfusion.cards, dev.mcpfusion.outbound;
}
