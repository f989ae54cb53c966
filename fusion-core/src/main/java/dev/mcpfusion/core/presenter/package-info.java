/**
 * Pipeline step 6: turns a successful handler result into the blocks an agent reads (data,
 * truncation summary, domain rules, action suggestions), its {@code structuredContent} and
 * {@code _meta}, always through the generated presenter so undeclared data never leaves.
 */
package dev.mcpfusion.core.presenter;
