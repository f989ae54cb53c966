/**
 * Guarded outbound HTTP ({@link dev.mcpfusion.outbound.OutboundHttp}): every URL a handler calls
 * passes a {@link dev.mcpfusion.outbound.UrlPolicy} (normalised, allow-listed, every DNS answer
 * vetted) and the socket connects to the vetted address only.
 */
package dev.mcpfusion.outbound;
