package dev.mcpfusion.core.spi;

/** How an action method returns its result. */
public enum ResultShape {
  /** {@code void}: rendered {@code OK}. */
  VOID,
  /** A primitive, boxed type, {@code String} or enum, written as a JSON value without presenter. */
  VALUE,
  /** One item (a model, a view, a {@code Map} row or a JSON tree); {@code null} is an internal error. */
  SINGLE,
  /** {@code Optional<item>}: empty is {@code NOT_FOUND}. */
  OPTIONAL,
  /** A {@code java.util.Collection} of items: size known, summary says "N shown, M hidden". */
  COLLECTION,
  /** An array of items: size known. */
  ARRAY,
  /** An {@code Iterable} that is not a collection: read lazily, size unknown; closed if closeable. */
  ITERABLE,
  /** A {@code java.util.stream.Stream}: read lazily, size unknown; always closed. */
  STREAM,
  /**
   * A {@code dev.mcpfusion.core.Page}: its items are presented like a collection, and the next
   * cursor goes out in the summary, {@code structuredContent.truncated.next} and {@code _meta}.
   */
  PAGE
}
