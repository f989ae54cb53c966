package dev.mcpfusion.samples.boot;

/** Whether a book can be borrowed now. */
public enum BookStatus {
  AVAILABLE,
  ON_LOAN
}
