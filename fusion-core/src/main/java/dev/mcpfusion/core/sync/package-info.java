/** Pipeline step 8: causal invalidation marks ({@code <cache_invalidation>}) on successful mutations. */
package dev.mcpfusion.core.sync;
