package dev.mcpfusion.core.spi;

/** What one item of an action's result is, and so how the presenter builds the view from it. */
public enum ElementKind {
  /** No item ({@link ResultShape#VOID} and {@link ResultShape#VALUE}). */
  NONE,
  /** A {@code @Model}: {@link PresenterBinding#fromModel}. */
  MODEL,
  /** The {@code @Presenter} view itself: used as is. */
  VIEW,
  /** A {@code Map<String, ?>} row: {@link PresenterBinding#fromMap}, declared keys only. */
  MAP,
  /** A Jackson {@code JsonNode}: converted to a plain map by the runtime, then {@link PresenterBinding#fromMap}. */
  TREE
}
