/**
 * The wire vocabulary, in one place: the reply model ({@link dev.mcpfusion.wire.Reply}), the
 * markup blocks an agent reads and their escaping ({@link dev.mcpfusion.wire.Blocks},
 * {@link dev.mcpfusion.wire.Markup}), the {@code _meta} keys
 * ({@link dev.mcpfusion.wire.Meta}), the JSON-RPC codes and MCP method names
 * ({@link dev.mcpfusion.wire.JsonRpc}), the framework's error codes
 * ({@link dev.mcpfusion.wire.Codes}) and the one list of protocol versions
 * ({@link dev.mcpfusion.wire.ProtocolVersions}).
 *
 * <p>Every other package writes through these names, so the text an agent or a client program
 * reads is spelled once. This package depends on nothing else of the framework but
 * {@code dev.mcpfusion.json}; the error, sync, trace, guard, redact and edge packages of the runtime read
 * replies from
 * here, never from the presenter.
 */
package dev.mcpfusion.wire;
