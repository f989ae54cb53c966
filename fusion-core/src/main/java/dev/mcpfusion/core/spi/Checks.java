package dev.mcpfusion.core.spi;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * The built-in jakarta constraints, checked by generated code with messages from our own catalogue
 * (deterministic, no expression language, no locale).
 *
 * <p>Every check is a no-op when the value is {@code null} (required-ness is {@link Args#required})
 * or when a problem was already recorded for the path, so one field reports one problem. Numbers
 * are compared exactly (as {@code BigDecimal}); sizes of text count Unicode code points, as JSON
 * Schema's {@code minLength}/{@code maxLength} do.
 */
public final class Checks {
  // Dot-atom local part (RFC 5322 atext) and a domain of LDH labels (IDN letters allowed) or an IP literal.
  private static final Pattern EMAIL_LOCAL =
      Pattern.compile("[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+(\\.[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+)*");
  private static final Pattern EMAIL_LABEL = Pattern.compile("[\\p{L}\\p{N}]([\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?");
  private static final Pattern EMAIL_IP_LITERAL = Pattern.compile("\\[[0-9a-fA-F:.]+\\]");

  private Checks() {}

  private static boolean skip(Object v, String path, Problems p) {
    return v == null || p.has(path);
  }

  /** {@code @NotBlank}: at least one non-whitespace character; {@code must not be blank}. */
  public static void notBlank(String v, String path, Problems p) {
    if (skip(v, path, p)) {
      return;
    }
    if (v.isBlank()) {
      p.add(path, "must not be blank", v);
    }
  }

  /** {@code @NotEmpty} on text, a collection, a map or an array; {@code must not be empty}. */
  public static void notEmpty(Object v, String path, Problems p) {
    if (skip(v, path, p)) {
      return;
    }
    if (sizeOf(v) == 0) {
      p.add(path, "must not be empty", v);
    }
  }

  /**
   * {@code @Size}: text length in characters, collection/map size or array length between
   * {@code min} and {@code max} inclusive ({@code 0} and {@link Integer#MAX_VALUE} are the
   * defaults, which give the {@code at least}/{@code at most} wording).
   */
  public static void size(Object v, int min, int max, String path, Problems p) {
    if (skip(v, path, p)) {
      return;
    }
    long size = sizeOf(v);
    if (size >= min && size <= max) {
      return;
    }
    boolean text = v instanceof CharSequence;
    String unit = text ? "character" : "item";
    String verb = text ? "must be " : "must have ";
    String message;
    if (min > 0 && max < Integer.MAX_VALUE) {
      message = min == max
          ? verb + "exactly " + min + " " + plural(unit, min)
          : verb + "between " + min + " and " + max + " " + unit + "s";
    } else if (min > 0) {
      message = verb + "at least " + min + " " + plural(unit, min);
    } else {
      message = verb + "at most " + max + " " + plural(unit, max);
    }
    p.add(path, message, v);
  }

  private static String plural(String unit, long n) {
    return n == 1 ? unit : unit + "s";
  }

  private static long sizeOf(Object v) {
    if (v instanceof CharSequence cs) {
      String s = cs.toString();
      return s.codePointCount(0, s.length());
    }
    if (v instanceof Collection<?> c) {
      return c.size();
    }
    if (v instanceof Map<?, ?> m) {
      return m.size();
    }
    if (v.getClass().isArray()) {
      return Array.getLength(v);
    }
    if (v instanceof Iterable<?> it) {
      long n = 0;
      for (Object ignored : it) {
        n++;
      }
      return n;
    }
    throw new IllegalArgumentException("No size for " + v.getClass().getName());
  }

  /** {@code @Min}: {@code must be greater than or equal to <min>}. */
  public static void min(Number v, long min, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, BigDecimal.valueOf(min), c -> c >= 0)) {
      p.add(path, "must be greater than or equal to " + min, v);
    }
  }

  /** {@code @Max}: {@code must be less than or equal to <max>}. */
  public static void max(Number v, long max, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, BigDecimal.valueOf(max), c -> c <= 0)) {
      p.add(path, "must be less than or equal to " + max, v);
    }
  }

  /** {@code @DecimalMin}: {@code must be greater than or equal to <min>}, exclusive {@code must be greater than <min>}. */
  public static void decimalMin(Number v, String min, boolean inclusive, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, new BigDecimal(min), inclusive ? c -> c >= 0 : c -> c > 0)) {
      p.add(path, (inclusive ? "must be greater than or equal to " : "must be greater than ") + min, v);
    }
  }

  /** {@code @DecimalMax}: {@code must be less than or equal to <max>}, exclusive {@code must be less than <max>}. */
  public static void decimalMax(Number v, String max, boolean inclusive, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, new BigDecimal(max), inclusive ? c -> c <= 0 : c -> c < 0)) {
      p.add(path, (inclusive ? "must be less than or equal to " : "must be less than ") + max, v);
    }
  }

  /** {@code @Positive}: {@code must be greater than 0}. */
  public static void positive(Number v, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, BigDecimal.ZERO, c -> c > 0)) {
      p.add(path, "must be greater than 0", v);
    }
  }

  /** {@code @PositiveOrZero}: {@code must be greater than or equal to 0}. */
  public static void positiveOrZero(Number v, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, BigDecimal.ZERO, c -> c >= 0)) {
      p.add(path, "must be greater than or equal to 0", v);
    }
  }

  /** {@code @Negative}: {@code must be less than 0}. */
  public static void negative(Number v, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, BigDecimal.ZERO, c -> c < 0)) {
      p.add(path, "must be less than 0", v);
    }
  }

  /** {@code @NegativeOrZero}: {@code must be less than or equal to 0}. */
  public static void negativeOrZero(Number v, String path, Problems p) {
    if (!skip(v, path, p) && fails(v, BigDecimal.ZERO, c -> c <= 0)) {
      p.add(path, "must be less than or equal to 0", v);
    }
  }

  /**
   * Whether {@code v} compared exactly with {@code bound} fails {@code ok}; infinities order beyond
   * every finite bound and NaN fails every bound.
   */
  private static boolean fails(Number v, BigDecimal bound, IntPredicate ok) {
    BigDecimal d = Args.decimalOf(v);
    if (d != null) {
      return !ok.test(d.compareTo(bound));
    }
    double x = v.doubleValue();
    if (Double.isNaN(x)) {
      return true;
    }
    return !ok.test(x > 0 ? 1 : -1);
  }

  /**
   * {@code @Pattern}: the whole value must match; {@code must match "<regexp>"} with the hint
   * {@code Expected format: <regexp>.}
   */
  public static void pattern(String v, Pattern compiled, String regexp, String path, Problems p) {
    if (skip(v, path, p)) {
      return;
    }
    if (!compiled.matcher(v).matches()) {
      p.add(path, "must match \"" + regexp + "\"", v, "Expected format: " + regexp + ".");
    }
  }

  /** {@code @Email}: {@code must be a well-formed email address}. */
  public static void email(String v, String path, Problems p) {
    if (skip(v, path, p)) {
      return;
    }
    if (!isEmail(v)) {
      p.add(path, "must be a well-formed email address", v);
    }
  }

  /**
   * {@code @Email(regexp = ..., flags = ...)}: well-formed and the whole value matches
   * {@code compiled}; {@code must be a well-formed email address} with the hint
   * {@code Expected format: <regexp>.}
   */
  public static void email(String v, Pattern compiled, String regexp, String path, Problems p) {
    if (skip(v, path, p)) {
      return;
    }
    if (!isEmail(v)) {
      p.add(path, "must be a well-formed email address", v);
    } else if (!compiled.matcher(v).matches()) {
      p.add(path, "must be a well-formed email address", v, "Expected format: " + regexp + ".");
    }
  }

  static boolean isEmail(String v) {
    int at = v.lastIndexOf('@');
    if (at <= 0 || at == v.length() - 1) {
      return false;
    }
    String local = v.substring(0, at);
    String domain = v.substring(at + 1);
    if (local.length() > 64 || domain.length() > 255 || !EMAIL_LOCAL.matcher(local).matches()) {
      return false;
    }
    if (EMAIL_IP_LITERAL.matcher(domain).matches()) {
      return true;
    }
    if (domain.endsWith(".")) {
      return false;
    }
    for (String label : domain.split("\\.", -1)) {
      if (label.isEmpty() || label.length() > 63 || !EMAIL_LABEL.matcher(label).matches()) {
        return false;
      }
    }
    return true;
  }
}
