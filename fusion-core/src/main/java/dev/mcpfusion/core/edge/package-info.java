/**
 * The front door: everything between "a JSON-RPC message arrived" and "a pipeline call or a
 * JSON-RPC reply", for every transport and both protocol eras ({@link dev.mcpfusion.core.edge.Edge}).
 * Transports frame bytes and hand them to the edge with an {@link dev.mcpfusion.core.edge.Inbound}
 * and an {@link dev.mcpfusion.core.edge.Sink}; the edge parses, answers, and writes every body
 * ({@link dev.mcpfusion.core.edge.Bodies}).
 *
 * <p>Framework-internal: the module exports it only to {@code fusion-http} and {@code fusion-testing}.
 */
package dev.mcpfusion.core.edge;
