package dev.mcpfusion.annotation;

/** The cache semantics an agent may assume for an action's result; see {@link CacheControl}. */
public enum CachePolicy {
  /** No statement: the agent applies its own judgement. */
  DEFAULT,
  /** The data is volatile: never reuse it, call again. */
  NO_STORE,
  /** The data never changes once read. */
  IMMUTABLE
}
