/**
 * Deterministic compact JSON for the plain trees the framework sends (data blocks, suggestion
 * arguments, {@code _meta}) and a strict parser that turns text into the same plain trees.
 */
package dev.mcpfusion.json;
