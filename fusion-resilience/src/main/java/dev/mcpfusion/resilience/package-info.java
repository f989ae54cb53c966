/**
 * Circuit breakers per upstream ({@link dev.mcpfusion.resilience.Upstreams}): while an upstream's
 * breaker is open, a call to it is refused at once with an {@code UPSTREAM_UNAVAILABLE} envelope
 * that says when to retry.
 */
package dev.mcpfusion.resilience;
