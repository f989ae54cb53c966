package dev.mcpfusion.annotation;

/** How {@link Redact} masks a value or a piece of text it found. */
public enum Mask {
  /** The whole value becomes {@code [REDACTED]}. */
  FULL,
  /**
   * Every letter and digit but the last four becomes {@code *}, separators stay
   * ({@code 4111 1111 1111 1111} → {@code **** **** **** 1111}); text with fewer than eight
   * letters and digits is masked in full.
   */
  PARTIAL
}
