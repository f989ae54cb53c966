package dev.mcpfusion.maven;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean …?" for a configured name that names nothing. */
final class Suggest {
  private Suggest() {}

  /** The suffix {@code (did you mean "x"?)} for the nearest candidate within two edits, or an empty string. */
  static String didYouMean(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = 3;
    for (String c : candidates.stream().sorted().toList()) {
      int d = distance(name.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best == null ? "" : " (did you mean \"" + best + "\"?)";
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
