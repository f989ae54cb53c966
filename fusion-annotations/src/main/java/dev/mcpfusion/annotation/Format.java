package dev.mcpfusion.annotation;

/**
 * How a view's data block, the text content the agent reads, is written; see
 * {@link Presenter#format()}. {@code structuredContent} is JSON whatever the format.
 */
public enum Format {
  /** Compact JSON, for single items and collections alike. */
  JSON,
  /**
   * TOON (Token-Oriented Object Notation) for a collection result: one header naming the fields
   * once, then one comma-separated line per item, e.g.
   * {@code [2]{id,totalCents}:} followed by {@code   INV-1,1200} and {@code   INV-2,800}. Items whose
   * components are not all scalars fall back to TOON's list form. A single item stays compact JSON.
   * Needs {@code dev.toonformat:jtoon} on the runtime class path (the BOM manages its version).
   */
  TOON
}
