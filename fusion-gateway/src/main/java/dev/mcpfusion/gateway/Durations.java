package dev.mcpfusion.gateway;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the config file writes them ({@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}) and as the agent reads them. */
final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  private Durations() {}

  /**
   * Parses {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} or an ISO-8601 duration ({@code PT5S}).
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  static Duration parse(String text, String where) {
    Matcher m = SHORT.matcher(text.strip());
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      };
    }
    try {
      return Duration.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(where + ": expected a duration such as 500ms, 5s, 2m or 1h"
          + " but was '" + text + "'");
    }
  }

  /** {@code 5 seconds}, {@code 1 second}, {@code 250 milliseconds}, {@code 5 minutes}. */
  static String words(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0 && ms >= 60_000) {
      long m = ms / 60_000;
      return m + (m == 1 ? " minute" : " minutes");
    }
    if (ms % 1000 == 0) {
      long s = ms / 1000;
      return s + (s == 1 ? " second" : " seconds");
    }
    return ms + " milliseconds";
  }
}
