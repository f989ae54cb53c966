/**
 * The wire vocabulary, in one place: the reply model ({@link dev.mcpfusion.core.wire.Reply}), the
 * markup blocks an agent reads and their escaping ({@link dev.mcpfusion.core.wire.Blocks},
 * {@link dev.mcpfusion.core.wire.Markup}), the {@code _meta} keys
 * ({@link dev.mcpfusion.core.wire.Meta}), the JSON-RPC codes and MCP method names
 * ({@link dev.mcpfusion.core.wire.JsonRpc}), the framework's error codes
 * ({@link dev.mcpfusion.core.wire.Codes}) and the one list of protocol versions
 * ({@link dev.mcpfusion.core.wire.ProtocolVersions}).
 *
 * <p>Every other package writes through these names, so the text an agent or a client program
 * reads is spelled once. This package depends on nothing else of the framework but
 * {@code core.json}; the error, sync, trace, guard, redact and edge packages read replies from
 * here, never from the presenter.
 */
package dev.mcpfusion.core.wire;
