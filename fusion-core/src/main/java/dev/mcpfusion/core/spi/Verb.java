package dev.mcpfusion.core.spi;

/** The verb annotation an action was declared with. */
public enum Verb {
  /** {@code @Query}: read-only. */
  QUERY,
  /** {@code @Mutation}: destructive. */
  MUTATION,
  /** {@code @Action}: neutral. */
  ACTION
}
