package dev.mcpfusion.benchmarks.pipeline;

import io.modelcontextprotocol.spec.McpSchema;

/**
 * The check every side-by-side JMH setup runs first: a guard that is on but not reached must leave
 * the answer exactly as the plain pipeline gives it, so the two sides measure the same work.
 */
final class SameAnswer {
  private SameAnswer() {}

  /** Fails unless {@code a} and {@code b} are the same successful result. */
  static void check(McpSchema.CallToolResult a, McpSchema.CallToolResult b) {
    if (Boolean.TRUE.equals(a.isError()) || !a.content().equals(b.content())
        || !a.structuredContent().equals(b.structuredContent()) || !a.meta().equals(b.meta())) {
      throw new IllegalStateException("the sides differ:\n" + a + "\n" + b);
    }
  }
}
