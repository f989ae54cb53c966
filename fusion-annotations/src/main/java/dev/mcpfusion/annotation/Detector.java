package dev.mcpfusion.annotation;

/**
 * A kind of sensitive text that {@link Redact} finds inside string values. Each detector checks
 * more than a shape where the kind allows it, so ordinary numbers are left alone.
 */
public enum Detector {
  /** An e-mail address ({@code local@domain.tld}). */
  EMAIL,
  /** A payment card number: 13 to 19 digits, optionally grouped by spaces or dashes, passing the Luhn check. */
  CARD,
  /** An IBAN: country code, check digits and account, with the right length for the country and a valid mod-97 checksum. */
  IBAN,
  /** A US Social Security number {@code 123-45-6789}, without the numbers the SSA never issues. */
  SSN,
  /** A phone number: international ({@code +44 20 7946 0958}) or North American ({@code (415) 555-0132}). */
  PHONE,
  /**
   * An API key or token: well-known prefixes ({@code sk_live_}, {@code ghp_}, {@code xoxb-},
   * {@code AKIA}, ...) followed by a long secret, and JSON Web Tokens.
   */
  API_KEY
}
