package dev.mcpfusion.core.wire;

/**
 * Renders a logical action reference ({@code billing.void_invoice}) as the agent can call it:
 * FLAT {@code billing_void_invoice}, GROUPED {@code billing (action: void_invoice)}. A reference
 * that names no real action is returned as written.
 */
@FunctionalInterface
public interface References {
  /** The rendered form of {@code logicalReference}. */
  String render(String logicalReference);

  /** Renders every reference as written (for tests and contexts without exposition). */
  static References asWritten() {
    return reference -> reference;
  }
}
