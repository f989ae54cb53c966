/**
 * Input-required results of the 2026-07-28 era (SEP-2322): a handler that asks the client
 * ({@code RequestContext.elicit}, {@code sample}, {@code roots}) is answered with the questions and
 * a signed, bounded, expiring request state; the client's retry, carrying the answers and the
 * state, runs the handler again and completes it. The server keeps nothing between the rounds.
 *
 * <p>Framework-internal: exported to the runtime only; handlers ask through the runtime's
 * {@code RequestContext}. Plain JSON trees and the JDK's HMAC: nothing here knows a handler.
 */
package dev.mcpfusion.wire.input;
