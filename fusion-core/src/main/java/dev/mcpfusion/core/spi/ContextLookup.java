package dev.mcpfusion.core.spi;

/** Resolves {@code @Context} parameters (and {@code RequestContext}) for a generated dispatcher. */
@FunctionalInterface
public interface ContextLookup {
  /**
   * The context value of {@code type} for the current call. The runtime verified at
   * {@code build()} that every such type is provided; a provider returning {@code null} yields
   * {@code null}.
   */
  <T> T get(Class<T> type);
}
