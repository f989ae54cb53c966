package dev.mcpfusion.core.trace;

/**
 * The status of a tool span: {@link #OK} on success, {@link #UNSET} for failures the
 * agent caused and can recover from, {@link #ERROR} only for an unexpected exception.
 */
public enum SpanStatus {
  /** Not set: the agent sent something the tool could not act on (validation, unknown tool or action, a {@code FusionError}). */
  UNSET,
  /** The call succeeded. */
  OK,
  /** The call failed unexpectedly (an {@code INTERNAL_ERROR}). */
  ERROR
}
