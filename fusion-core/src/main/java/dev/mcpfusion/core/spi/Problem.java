package dev.mcpfusion.core.spi;

/**
 * One bad input field.
 *
 * @param path the field path as the agent wrote it: {@code id}, {@code lines[2].qty}
 * @param message what is wrong, without the value: {@code expected string but was number},
 *     {@code is required}, {@code must match "INV-\d+"}
 * @param sent the value the agent sent (a plain JSON value or a decoded value), or
 *     {@link Problems#MISSING}
 * @param hint an optional sentence that helps fix it ({@code Expected format: INV-\d+.}), or {@code null}
 */
public record Problem(String path, String message, Object sent, String hint) {}
