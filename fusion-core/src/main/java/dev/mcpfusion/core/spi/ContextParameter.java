package dev.mcpfusion.core.spi;

/**
 * A method parameter filled from the per-request context.
 *
 * @param name the parameter name (for error messages)
 * @param type the requested type
 */
public record ContextParameter(String name, Class<?> type) {}
