package dev.mcpfusion.framework.egress;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * The secrets one try plants in the vault: a card number (Luhn), an IBAN (its country's length,
 * mod-97), four API tokens of the kinds the {@code API_KEY} detector names, a free-form note only a
 * {@code @Redact} path masks, and a {@code @Hidden} sentinel. Each is valid for the detector that
 * claims its kind, written the way it is stored (a card grouped by spaces or dashes, an IBAN in
 * groups of four, or plain); the handlers never run one together with a neighbouring letter or
 * digit, so the text around a secret never hides it from its detector.
 *
 * <p>{@link #leaks} finds each secret in any form its detector claims to catch — a card's digits
 * with single spaces or dashes anywhere between them, an IBAN with single spaces anywhere after its
 * check digits — so a secret re-grouped on the way out is still found, and a masked one
 * ({@code [REDACTED]}, or {@code **** 1111}) is not.
 */
record Plant(String card, String iban, String stripeKey, String githubToken, String slackToken,
    String awsKeyId, String note, String sentinel, int subscribedKey) {

  /** Where a secret was found, and as what. */
  record Leak(String kind, String found) {}

  /** The secrets the resource-update channel may put in a subscribed URI (URI-safe tokens). */
  List<String> keys() {
    return List.of(stripeKey, githubToken, slackToken, awsKeyId);
  }

  /** The token whose {@code vault://keys/{key}} URI the classic era subscribes to. */
  String subscribedToken() {
    return keys().get(subscribedKey);
  }

  /** Every secret of this plant found in {@code text}, each with the text that matched. */
  List<Leak> leaks(String text) {
    return search().in(text, Search.squeezed(text));
  }

  /** What finds this plant's secrets; build it once to search many texts. */
  Search search() {
    Search search = new Search();
    search.add("card", String.join("[ -]?", digits(card).split("")), digits(card));
    String compact = iban.replace(" ", "");
    StringBuilder ibanForms = new StringBuilder(Pattern.quote(compact.substring(0, 4)));
    for (int i = 4; i < compact.length(); i++) {
      ibanForms.append(" ?").append(compact.charAt(i));
    }
    search.add("IBAN", ibanForms.toString(), compact);
    search.literal("Stripe key", stripeKey);
    search.literal("GitHub token", githubToken);
    search.literal("Slack token", slackToken);
    search.literal("AWS key id", awsKeyId);
    // The random word of the note: a path masks the whole value, so no part of it may leave.
    search.literal("@Redact note", note.substring(NOTE.length(), note.length() - 1));
    // Must never appear at all, masked or not: @Hidden is stripped, not masked.
    search.literal("@Hidden sentinel", sentinel.substring(SENTINEL.length()));
    return search;
  }

  /**
   * The forms of one plant's secrets. A text is first searched without its spaces and dashes
   * ({@link #squeezed}) for each secret's characters, which every form of it leaves there, so
   * only a text that may hold one is matched against the form's pattern.
   */
  static final class Search {
    private record Form(String kind, Pattern pattern, String squeezed) {}

    private final List<Form> forms = new ArrayList<>();

    private void add(String kind, String regex, String characters) {
      forms.add(new Form(kind, Pattern.compile(regex), squeezed(characters)));
    }

    private void literal(String kind, String secret) {
      add(kind, Pattern.quote(secret), secret);
    }

    /** {@code text} without spaces and dashes, the separators a detector allows inside a secret. */
    static String squeezed(String text) {
      return text.indexOf(' ') < 0 && text.indexOf('-') < 0 ? text
          : text.replace(" ", "").replace("-", "");
    }

    /** The secrets found in {@code text}, given {@code squeezed(text)}. */
    List<Leak> in(String text, String squeezedText) {
      List<Leak> found = new ArrayList<>();
      for (Form form : forms) {
        if (squeezedText.contains(form.squeezed())) {
          Matcher m = form.pattern().matcher(text);
          if (m.find()) {
            found.add(new Leak(form.kind(), m.group()));
          }
        }
      }
      return found;
    }
  }

  private static String digits(String text) {
    return text.replaceAll("[^0-9]", "");
  }

  // ---- generation ------------------------------------------------------------------------------

  private static final String NOTE = "Prefers the side entrance; code word ";
  private static final String SENTINEL = "sentinel-";
  private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final String UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  /** A country, its IBAN length, and how many letters its account part starts with. */
  private record Country(String code, int length, int letters) {}

  private static final List<Country> COUNTRIES = List.of(
      new Country("DE", 22, 0), new Country("FR", 27, 0), new Country("GB", 22, 4),
      new Country("NL", 18, 4), new Country("ES", 24, 0), new Country("IT", 27, 1),
      new Country("BE", 16, 0), new Country("NO", 15, 0), new Country("CH", 21, 0),
      new Country("PL", 28, 0), new Country("AT", 20, 0), new Country("IE", 22, 4));

  /** Random plants, each secret valid for its detector. */
  static Arbitrary<Plant> plants() {
    Arbitrary<List<String>> tokens = Combinators.combine(
        chars(ALNUM, 24).map(s -> "sk_live_" + s),
        chars(ALNUM, 36).map(s -> "ghp_" + s),
        Combinators.combine(chars("0123456789", 12), chars("0123456789", 13), chars(ALNUM, 24))
            .as((a, b, c) -> "xoxb-" + a + "-" + b + "-" + c),
        chars(UPPER_DIGITS, 16).map(s -> "AKIA" + s))
        .as(List::of);
    return Combinators.combine(cards(), ibans(), tokens,
            chars("abcdefghijklmnopqrstuvwxyz", 14).map(w -> NOTE + w + "."),
            chars("0123456789abcdef", 24).map(h -> SENTINEL + h),
            Arbitraries.integers().between(0, 3))
        .as((card, iban, t, note, sentinel, key) ->
            new Plant(card, iban, t.get(0), t.get(1), t.get(2), t.get(3), note, sentinel, key));
  }

  private static Arbitrary<String> chars(String alphabet, int length) {
    return Arbitraries.strings().withChars(alphabet.toCharArray()).ofLength(length)
        .withoutEdgeCases();
  }

  /** 13 to 19 digits passing Luhn, written plain, in groups of four by spaces, or by dashes. */
  static Arbitrary<String> cards() {
    return Arbitraries.integers().between(13, 19).flatMap(length -> Combinators.combine(
            Arbitraries.of('3', '4', '5', '6'), chars("0123456789", length - 2),
            Arbitraries.of("", " ", "-"))
        .as((first, body, separator) -> grouped(withLuhnDigit(first + body), separator)));
  }

  /** An IBAN of a listed country, with correct check digits, plain or in groups of four. */
  static Arbitrary<String> ibans() {
    return Arbitraries.of(COUNTRIES).flatMap(c -> Combinators.combine(
            chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", Math.max(c.letters(), 1)),
            chars("0123456789", c.length() - 4 - c.letters()), Arbitraries.of("", " "))
        .as((letters, digits, separator) -> {
          String account = (c.letters() == 0 ? "" : letters.substring(0, c.letters())) + digits;
          return grouped(c.code() + checkDigits(c.code(), account) + account, separator);
        }));
  }

  static String withLuhnDigit(String partial) {
    int sum = 0;
    boolean twice = true; // the check digit will be rightmost, so the last digit here is doubled
    for (int i = partial.length() - 1; i >= 0; i--) {
      int d = partial.charAt(i) - '0';
      if (twice) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
      twice = !twice;
    }
    return partial + (10 - sum % 10) % 10;
  }

  static String checkDigits(String country, String account) {
    StringBuilder numeric = new StringBuilder();
    for (char c : (account + country + "00").toCharArray()) {
      numeric.append(Character.isLetter(c) ? String.valueOf(c - 'A' + 10) : String.valueOf(c));
    }
    int check = 98 - new BigInteger(numeric.toString()).mod(BigInteger.valueOf(97)).intValue();
    return (check < 10 ? "0" : "") + check;
  }

  private static String grouped(String text, String separator) {
    if (separator.isEmpty()) {
      return text;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i += 4) {
      if (i > 0) {
        out.append(separator);
      }
      out.append(text, i, Math.min(text.length(), i + 4));
    }
    return out.toString();
  }
}
