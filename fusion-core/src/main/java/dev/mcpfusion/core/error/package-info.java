/**
 * The self-healing error envelopes ({@code <tool_error>}, {@code <validation_error>}) an agent
 * reads when a call fails, each with its {@code mcpfusion/error} {@code _meta} entry.
 */
package dev.mcpfusion.core.error;
