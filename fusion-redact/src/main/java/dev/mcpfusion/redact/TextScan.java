package dev.mcpfusion.redact;

/**
 * The one pass over a string that tells which finders could match it at all, so that most strings
 * (ids, names, dates, amounts) cost this loop alone and no finder runs on them.
 */
final class TextScan {
  /** The flags of a {@link #scan}: the string holds an {@code @}, a {@code -}, a {@code +}. */
  private static final long AT = 1L << 62;
  private static final long DASH = 1L << 61;
  private static final long PLUS = 1L << 60;

  private TextScan() {}

  /**
   * One pass that reads every finder's necessary condition (see {@link Finder#mayMatch}), so a
   * string none can match (most of them: ids, names, dates, amounts) costs this loop alone. Packed
   * into a long: the length in the low 31 bits, the longest digit run in the next 29, and the
   * {@code @}, {@code -} and {@code +} flags above them.
   */
  static long scan(String text) {
    int length = text.length();
    int run = 0;
    int longest = 0;
    int gap = 0;
    long flags = 0;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        if (++run > longest) {
          longest = run;
        }
        gap = 0;
      } else if (c == ' ' || c == '-' || c == '.' || c == '(' || c == ')' || c == '+') {
        if (++gap > 3) {
          run = 0;
        }
        if (c == '-') {
          flags |= DASH;
        } else if (c == '+') {
          flags |= PLUS;
        }
      } else {
        run = 0;
        gap = 0;
        if (c == '@') {
          flags |= AT;
        }
      }
    }
    return flags | (long) Math.min(longest, (1 << 29) - 1) << 31 | length;
  }

  static boolean mayMatch(Finder finder, long scan) {
    return finder.mayMatch((int) (scan & Integer.MAX_VALUE), (int) (scan >>> 31 & ((1 << 29) - 1)),
        (scan & AT) != 0, (scan & DASH) != 0, (scan & PLUS) != 0);
  }
}
