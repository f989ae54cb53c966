package dev.mcpfusion.redact;

import dev.mcpfusion.annotation.Detector;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds sensitive text of one kind inside a string and reports each piece as a {@code [start, end)}
 * span. A finder first checks a cheap necessary condition (an {@code @}, enough digits), so most
 * strings cost one scan; then a regular expression proposes candidates and a check that a shape
 * cannot give (Luhn, mod-97, the SSA's unissued ranges, a JWT header that decodes to JSON) keeps
 * ordinary numbers and words unmasked.
 */
abstract class Finder {
  /** Adds the spans of every piece found in {@code text} to {@code out}. */
  abstract void find(String text, Spans out);

  /**
   * Whether {@link #find} can find anything in a string of {@code length} characters whose longest
   * digit run holds {@code run} digits (a run: digits with at most three of {@code " .-()+"}
   * between neighbours, the separators cards, SSNs and phone numbers use), and that holds an
   * {@code @} ({@code at}), a {@code -} ({@code dash}) or a {@code +} ({@code plus}). These are
   * necessary conditions of every finder, read off one pass over the string that serves all of
   * them ({@link Redactor#text}): a finder whose condition fails is not called, so a date, an
   * amount or an id costs that pass alone. A user's pattern can match anything.
   */
  boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
    return true;
  }

  static Finder of(Detector detector) {
    switch (detector) {
      case EMAIL:
        return new Email();
      case CARD:
        return new Card();
      case IBAN:
        return new Iban();
      case SSN:
        return new Ssn();
      case PHONE:
        return new Phone();
      case API_KEY:
        return new ApiKey();
      default:
        throw new IllegalArgumentException("no finder for detector " + detector);
    }
  }

  /** A finder for a user's {@code Redaction.pattern(name, regex)}: every match. */
  static Finder of(Pattern pattern) {
    return new Finder() {
      @Override
      void find(String text, Spans out) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
          if (m.end() > m.start()) {
            out.add(m.start(), m.end());
          }
        }
      }
    };
  }

  static int digits(String text) {
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        n++;
      }
    }
    return n;
  }

  static final class Email extends Finder {
    private static final Pattern P = Pattern.compile(
        "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63})*"
            + "\\.[A-Za-z]{2,24}(?![A-Za-z0-9-])");

    @Override
    boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
      return at && length >= 6;
    }

    @Override
    void find(String text, Spans out) {
      if (text.indexOf('@') < 0) {
        return;
      }
      Matcher m = P.matcher(text);
      while (m.find()) {
        out.add(m.start(), m.end());
      }
    }
  }

  /** 13 to 19 digits, single spaces or dashes between them allowed, passing the Luhn check. */
  static final class Card extends Finder {
    private static final Pattern P = Pattern.compile("(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])");

    @Override
    boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
      return run >= 13;
    }

    @Override
    void find(String text, Spans out) {
      if (digits(text) < 13) {
        return;
      }
      Matcher m = P.matcher(text);
      while (m.find()) {
        if (luhn(m.group())) {
          out.add(m.start(), m.end());
        }
      }
    }

    static boolean luhn(CharSequence number) {
      int sum = 0;
      int count = 0;
      boolean twice = false;
      for (int i = number.length() - 1; i >= 0; i--) {
        char c = number.charAt(i);
        if (c < '0' || c > '9') {
          continue;
        }
        int d = c - '0';
        if (twice) {
          d *= 2;
          if (d > 9) {
            d -= 9;
          }
        }
        sum += d;
        twice = !twice;
        count++;
      }
      return count >= 13 && count <= 19 && sum % 10 == 0;
    }
  }

  /** Country code, two check digits, the account; the country's length and mod-97 == 1. */
  static final class Iban extends Finder {
    private static final Pattern P = Pattern.compile(
        "(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])");
    private static final BigInteger NINETY_SEVEN = BigInteger.valueOf(97);
    /** IBAN lengths by country (SWIFT IBAN registry). */
    private static final Map<String, Integer> LENGTHS = lengths(
        "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28"
            + " EE20 EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23"
            + " IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19"
            + " MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19"
            + " SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20");

    private static Map<String, Integer> lengths(String table) {
      Map<String, Integer> out = new java.util.HashMap<>();
      for (String entry : table.split(" ")) {
        out.put(entry.substring(0, 2), Integer.parseInt(entry.substring(2)));
      }
      return Map.copyOf(out);
    }

    @Override
    boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
      return length >= 15 && run >= 2;
    }

    @Override
    void find(String text, Spans out) {
      int from = start(text, 0);
      if (from < 0) {
        return;
      }
      Matcher m = P.matcher(text);
      while (from >= 0 && m.find(from)) {
        if (valid(m.group())) {
          out.add(m.start(), m.end());
        }
        from = start(text, m.end());
      }
    }

    /**
     * The next place an IBAN can start (two capitals, two digits, after a non-alphanumeric), found
     * by a plain scan so that text without one never reaches the regular expression.
     */
    private static int start(String text, int from) {
      for (int i = Math.max(from, 0); i + 15 <= text.length(); i++) {
        if (upper(text.charAt(i)) && upper(text.charAt(i + 1)) && digit(text.charAt(i + 2))
            && digit(text.charAt(i + 3))
            && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
          return i;
        }
      }
      return -1;
    }

    private static boolean upper(char c) {
      return c >= 'A' && c <= 'Z';
    }

    private static boolean digit(char c) {
      return c >= '0' && c <= '9';
    }

    static boolean valid(String candidate) {
      String iban = candidate.replace(" ", "");
      Integer length = LENGTHS.get(iban.substring(0, 2));
      if (length == null || iban.length() != length) {
        return false;
      }
      String rearranged = iban.substring(4) + iban.substring(0, 4);
      StringBuilder digits = new StringBuilder(rearranged.length() * 2);
      for (int i = 0; i < rearranged.length(); i++) {
        char c = rearranged.charAt(i);
        if (c >= 'A' && c <= 'Z') {
          digits.append(c - 'A' + 10);
        } else {
          digits.append(c);
        }
      }
      return new BigInteger(digits.toString()).mod(NINETY_SEVEN).intValue() == 1;
    }
  }

  /** {@code AAA-GG-SSSS}; area 000, 666 and 900-999, group 00 and serial 0000 were never issued. */
  static final class Ssn extends Finder {
    private static final Pattern P =
        Pattern.compile("(?<![0-9-])([0-9]{3})-([0-9]{2})-([0-9]{4})(?![0-9-])");

    @Override
    boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
      return dash && run >= 9;
    }

    @Override
    void find(String text, Spans out) {
      if (text.indexOf('-') < 0 || digits(text) < 9) {
        return;
      }
      Matcher m = P.matcher(text);
      while (m.find()) {
        String area = m.group(1);
        if (area.equals("000") || area.equals("666") || area.charAt(0) == '9'
            || m.group(2).equals("00") || m.group(3).equals("0000")) {
          continue;
        }
        out.add(m.start(), m.end());
      }
    }
  }

  /**
   * International numbers ({@code +} country code, 8 to 15 digits, E.164's bound) and North
   * American ones ({@code (415) 555-0132}, {@code 415-555-0132}, {@code 415.555.0132}).
   */
  static final class Phone extends Finder {
    private static final Pattern P = Pattern.compile(
        "(?<![A-Za-z0-9+])\\+[0-9](?:[ .-]?\\(?[0-9]+\\)?){2,7}(?![A-Za-z0-9])"
            + "|(?<![A-Za-z0-9(.-])(?:\\([0-9]{3}\\) ?|[0-9]{3}[ .-])[0-9]{3}[ .-][0-9]{4}(?![A-Za-z0-9.-])");

    @Override
    boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
      // North American: ten digits; international: a + and eight or more
      return run >= 10 || plus && run >= 8;
    }

    @Override
    void find(String text, Spans out) {
      if (digits(text) < 8) {
        return;
      }
      Matcher m = P.matcher(text);
      while (m.find()) {
        String candidate = m.group();
        int n = digits(candidate);
        boolean international = candidate.charAt(0) == '+';
        if (international ? n >= 8 && n <= 15 : n == 10) {
          out.add(m.start(), m.end());
        }
      }
    }
  }

  /** Well-known key prefixes followed by a long secret, and JSON Web Tokens. */
  static final class ApiKey extends Finder {
    private static final Pattern P = Pattern.compile(
        "(?<![A-Za-z0-9_-])(?:"
            + "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"
            + "|gh[pousr]_[A-Za-z0-9]{30,}"
            + "|github_pat_[A-Za-z0-9_]{30,}"
            + "|glpat-[A-Za-z0-9_-]{20,}"
            + "|xox[abposr]-[A-Za-z0-9-]{10,}"
            + "|npm_[A-Za-z0-9]{30,}"
            + "|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}"
            + "|AKIA[0-9A-Z]{16}"
            + "|AIza[0-9A-Za-z_-]{35}"
            + "|(eyJ[A-Za-z0-9_-]{8,})\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*"
            + ")(?![A-Za-z0-9_-])");

    @Override
    boolean mayMatch(int length, int run, boolean at, boolean dash, boolean plus) {
      return length >= 20;
    }

    @Override
    void find(String text, Spans out) {
      if (text.length() < 20) {
        return;
      }
      int first = firstPrefix(text);
      if (first < 0) {
        return;
      }
      Matcher m = P.matcher(text);
      m.region(first, text.length());
      m.useTransparentBounds(true);
      while (m.find()) {
        String header = m.group(1);
        if (header == null || isJwtHeader(header)) {
          out.add(m.start(), m.end());
        }
      }
    }

    /**
     * Where the first key prefix starts ({@code sk_ sk- rk_ gh?_ github_pat_ glpat- xox npm_ AKIA
     * AIza eyJ}), in one pass over the text; -1 for none, so text without one never reaches the
     * regular expression.
     */
    private static int firstPrefix(String text) {
      int last = text.length() - 4;
      for (int i = 0; i <= last; i++) {
        char c = text.charAt(i);
        char d = text.charAt(i + 1);
        boolean found;
        switch (c) {
          case 's':
          case 'r':
            found = d == 'k' && (text.charAt(i + 2) == '_' || (c == 's' && text.charAt(i + 2) == '-'));
            break;
          case 'g':
            found = (d == 'h' && text.charAt(i + 3) == '_') || text.startsWith("github_pat_", i)
                || text.startsWith("glpat-", i);
            break;
          case 'x':
            found = d == 'o' && text.charAt(i + 2) == 'x';
            break;
          case 'n':
            found = d == 'p' && text.startsWith("npm_", i);
            break;
          case 'A':
            found = d == 'K' && text.startsWith("AKIA", i) || d == 'I' && text.startsWith("AIza", i);
            break;
          case 'e':
            found = d == 'y' && text.charAt(i + 2) == 'J';
            break;
          default:
            found = false;
        }
        if (found) {
          return i;
        }
      }
      return -1;
    }

    /** A JWT header is base64url JSON naming its algorithm. */
    static boolean isJwtHeader(String segment) {
      try {
        String json = new String(Base64.getUrlDecoder().decode(segment), StandardCharsets.UTF_8);
        return json.startsWith("{") && json.contains("\"alg\"");
      } catch (IllegalArgumentException notBase64) {
        return false;
      }
    }
  }
}
