package dev.mcpfusion.lock;

import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.spi.CompletionDescriptor;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** How a prompt's or resource's contract records its limits and those of its completions. */
final class FeatureLimits {
  private FeatureLimits() {}

  /**
   * The limits of each {@code @Complete} method (an out-of-range value is the server's to report
   * at {@code build()}; the lockfile records what would be resolved) of prompt {@code prompt} or template {@code uri}
   * that has any, by argument.
   */
  static Map<String, Map<String, Long>> completions(FeaturesDescriptor f, String prompt, String uri,
      LockProfile profile) {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    for (CompletionDescriptor c : f.completions()) {
      if ((prompt != null && prompt.equals(c.prompt())) || (uri != null && uri.equals(c.resource()))) {
        Map<String, Long> named = ActionLimits.ofCompletion(profile.limits(), f, c,
            new ArrayList<>()).named();
        if (!named.isEmpty()) {
          out.put(c.argument(), named);
        }
      }
    }
    return out;
  }

  /** An unmodifiable, sorted copy. */
  static Map<String, Map<String, Long>> copy(Map<String, Map<String, Long>> limits) {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    limits.forEach((k, v) -> out.put(k, Collections.unmodifiableMap(new TreeMap<>(v))));
    return Collections.unmodifiableMap(out);
  }

  /** The {@code completionLimits} of a prompt or resource entry, or none. */
  static Map<String, Map<String, Long>> fromTree(TreeReader r) {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    if (r.has("completionLimits")) {
      TreeReader all = r.object("completionLimits");
      r.objects("completionLimits").forEach((k, v) -> out.put(k, all.longMap(k)));
    }
    return out;
  }
}
