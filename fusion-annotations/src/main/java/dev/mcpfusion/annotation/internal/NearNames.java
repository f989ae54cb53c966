package dev.mcpfusion.annotation.internal;

import java.util.Locale;

/**
 * The framework's one "did you mean": the name nearest to a misspelt one, by edit distance
 * (Levenshtein), compared without case. The processor suggests names in its diagnostics and the
 * runtime in its build errors and in the errors an agent reads, all by this rule.
 *
 * <p>Not for users: the module exports this package only to {@code dev.mcpfusion.core} and
 * {@code dev.mcpfusion.processor}, and it may change in any release.
 */
public final class NearNames {
  private NearNames() {}

  /**
   * The usual number of edits a suggestion for {@code name} may be away: a third of its length,
   * and at least 2.
   */
  public static int tolerance(String name) {
    return Math.max(2, name.length() / 3);
  }

  /**
   * The candidate nearest to {@code name}, compared without case, at most {@code maxEdits} edits
   * away; {@code null} when none is. A candidate as far away as the longer of the two is long has
   * nothing in common with the name ({@code "x"} and {@code "id"}) and is never suggested. Ties go
   * to the first candidate.
   */
  public static String nearest(String name, Iterable<String> candidates, int maxEdits) {
    String lower = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
      if (d <= maxEdits && d < Math.max(name.length(), candidate.length()) && d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best;
  }

  /** The edit distance between {@code a} and {@code b}: insertions, deletions and substitutions. */
  public static int distance(String a, String b) {
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
