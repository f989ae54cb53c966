package dev.mcpfusion.core.spi;

import java.util.List;
import java.util.Map;

/**
 * The prompts, resources and completions of one class bound to its instance: implemented by the
 * generated {@code X_Features} (nested: {@code Outer_Inner_Features}).
 *
 * <p>Each generated class also has {@code public static GeneratedFeatures bind(X target)} and
 * {@code public static FeaturesDescriptor describe()}; the server finds {@code bind} by name once
 * at {@code build()}. Nothing on the call path is reflective: every method is a {@code switch} over
 * the index in the descriptor's lists.
 */
public interface GeneratedFeatures {
  /** The SPI version the class was generated for ({@link FusionSpi#VERSION} at generation time). */
  int spiVersion();

  /** The static description: prompts, resources, completions. */
  FeaturesDescriptor descriptor();

  /**
   * Decodes and validates the arguments of prompt number {@code prompt} (its index in
   * {@code descriptor().prompts()}). {@code arguments} holds what the client sent (strings);
   * every problem is added to {@code problems}: unknown arguments, missing required ones, values
   * that are not accepted. The result has one slot per method parameter; context slots are
   * {@code null}. When {@code problems} is not empty afterwards, the result must not be used.
   */
  Object[] decodePrompt(int prompt, Map<String, ?> arguments, Problems problems);

  /** Calls the method of prompt number {@code prompt} with decoded arguments. */
  Object prompt(int prompt, Object[] arguments, ContextLookup context) throws Exception;

  /**
   * Calls the method of resource number {@code resource}; {@code variables} holds the values read
   * from the URI for a template (empty for a static resource).
   */
  Object resource(int resource, Map<String, String> variables, ContextLookup context)
      throws Exception;

  /** Calls the method of completion number {@code completion} with the text typed so far. */
  List<String> complete(int completion, String value, ContextLookup context) throws Exception;
}
