package dev.mcpfusion.core.spi;

import java.util.List;
import java.util.Map;

/**
 * A {@code @Router} class bound to its instance: implemented by the generated {@code X_Fusion}.
 *
 * <p>Each generated class also has {@code public static GeneratedRouter bind(X target)}; the server
 * finds it by name ({@code pkg.X_Fusion}, nested {@code pkg.Outer_Inner_Fusion}) once at
 * {@code build()}. Nothing on the call path is reflective: {@link #decode} and {@link #invoke} are
 * {@code switch}es over the action index.
 */
public interface GeneratedRouter {
  /** The SPI version the class was generated for ({@link FusionSpi#VERSION} at generation time). */
  int spiVersion();

  /** The router's static description: names, schemas, verbs, presenters, middleware. */
  RouterDescriptor descriptor();

  /**
   * The {@code Suggestion.of} and {@code FusionError...actions} references of this router's source
   * that name a router outside its compilation; {@code build()} checks them. A router written by
   * hand names none.
   */
  default List<Reference> references() {
    return List.of();
  }

  /**
   * Decodes and validates the arguments of action number {@code action} (its index in
   * {@code descriptor().actions()}).
   *
   * <p>{@code arguments} holds plain JSON values ({@code Map}, {@code List}, {@code String},
   * {@code Boolean}, {@code Number}, {@code null}); the GROUPED discriminator has already been
   * removed. JSON {@code null} counts as missing. Every problem is added to {@code problems}, in the
   * order: JSON types, unknown keys, constraints. The result has one slot per method parameter;
   * {@link dev.mcpfusion.annotation.Context} slots are {@code null}. When {@code problems} is not
   * empty afterwards, the result must not be used.
   */
  Object[] decode(int action, Map<String, ?> arguments, Problems problems);

  /**
   * Calls the user's method for action number {@code action} with decoded arguments, filling context
   * parameters from {@code context}. Exceptions thrown by the method propagate unchanged.
   */
  Object invoke(int action, Object[] arguments, ContextLookup context) throws Exception;
}
