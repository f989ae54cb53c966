package dev.mcpfusion.lock;

/**
 * How much a change to the lockfile can hurt an agent that relied on the committed contract, in
 * ascending order: {@code COSMETIC < SAFE < RISKY < BREAKING}.
 */
public enum Severity {
  /** Text only (descriptions): the agent may word things differently, nothing it calls changes. */
  COSMETIC,
  /** The surface grew or became more permissive for callers, or a limit was added or tightened. */
  SAFE,
  /** Behaviour around the call changed (middleware, caching, presenter, a limit removed or loosened). */
  RISKY,
  /** A call or a reading that worked before can now fail or mean something else. */
  BREAKING;

  /** Whether this severity is at least {@code threshold}. */
  public boolean atLeast(Severity threshold) {
    return compareTo(threshold) >= 0;
  }
}
