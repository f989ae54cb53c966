package dev.mcpfusion.maven;

import dev.mcpfusion.annotation.internal.NearNames;
import java.util.Collection;

/** "Did you mean …?" for a configured name that names nothing, by the framework's one rule. */
final class Suggest {
  private Suggest() {}

  /** The suffix {@code (did you mean "x"?)} for the nearest candidate, or an empty string. */
  static String didYouMean(String name, Collection<String> candidates) {
    String best = NearNames.nearest(name, candidates.stream().sorted().toList(), NearNames.tolerance(name));
    return best == null ? "" : " (did you mean \"" + best + "\"?)";
  }
}
