package dev.mcpfusion.core.spi;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Conversions for generated {@code V_Presenter.fromMap}: server-side row values (a {@code Map}
 * from a query, a converted JSON tree) to view component types. This is not agent input, so a
 * value that does not fit is a server bug: {@link IllegalArgumentException}
 * {@code Row key 'k': expected <type> but was <JavaType>}. {@code null} converts to {@code null}
 * everywhere except {@link #require}.
 *
 * <p>Numbers convert exactly: an integral target accepts any {@code Number} whose value is integral
 * and in range ({@code 3}, {@code 3L}, {@code 3.0}, {@code BigDecimal("3.00")}); a fraction or an
 * out-of-range value is rejected, never rounded or wrapped. {@code double}/{@code float} accept
 * any number. Text in ISO form converts to {@code UUID}, dates, enums (by name) and decimals.
 */
public final class Values {
  private Values() {}

  private static IllegalArgumentException mismatch(String key, String expected, Object v) {
    return new IllegalArgumentException(
        "Row key '" + key + "': expected " + expected + " but was " + v.getClass().getSimpleName());
  }

  /** Text: a {@code CharSequence}, an enum (its name), a number, a boolean, a UUID, a character or a {@code java.time} value. */
  public static String asString(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof CharSequence cs) {
      return cs.toString();
    }
    if (v instanceof Enum<?> e) {
      return e.name();
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof Number || v instanceof Boolean || v instanceof UUID || v instanceof Character
        || v instanceof TemporalAccessor) {
      return v.toString();
    }
    throw mismatch(key, "string", v);
  }

  /** A {@code Boolean}, or the text {@code true}/{@code false}. */
  public static Boolean asBoolean(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof CharSequence cs) {
      String s = cs.toString();
      if (s.equals("true")) {
        return Boolean.TRUE;
      }
      if (s.equals("false")) {
        return Boolean.FALSE;
      }
    }
    throw mismatch(key, "boolean", v);
  }

  /** An integral number in the {@code int} range. */
  public static Integer asInt(Object v, String key) {
    BigInteger i = integral(v, key, "int", BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE));
    return i == null ? null : i.intValue();
  }

  /** An integral number in the {@code long} range. */
  public static Long asLong(Object v, String key) {
    BigInteger i = integral(v, key, "long", BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE));
    return i == null ? null : i.longValue();
  }

  /** An integral number in the {@code short} range. */
  public static Short asShort(Object v, String key) {
    BigInteger i = integral(v, key, "short", BigInteger.valueOf(Short.MIN_VALUE), BigInteger.valueOf(Short.MAX_VALUE));
    return i == null ? null : i.shortValue();
  }

  /** An integral number in the {@code byte} range. */
  public static Byte asByte(Object v, String key) {
    BigInteger i = integral(v, key, "byte", BigInteger.valueOf(Byte.MIN_VALUE), BigInteger.valueOf(Byte.MAX_VALUE));
    return i == null ? null : i.byteValue();
  }

  /** Any integral number. */
  public static BigInteger asBigInteger(Object v, String key) {
    return integral(v, key, "integer", null, null);
  }

  private static BigInteger integral(Object v, String key, String type, BigInteger min, BigInteger max) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof Number n)) {
      throw mismatch(key, type, v);
    }
    BigDecimal d = Args.decimalOf(n);
    if (d == null || (d.signum() != 0 && d.stripTrailingZeros().scale() > 0)) {
      throw new IllegalArgumentException(
          "Row key '" + key + "': expected " + type + " but was the fraction " + n);
    }
    BigInteger i = d.toBigIntegerExact();
    if (min != null && (i.compareTo(min) < 0 || i.compareTo(max) > 0)) {
      throw new IllegalArgumentException(
          "Row key '" + key + "': " + n + " is out of range for " + type);
    }
    return i;
  }

  /** Any number, as {@code double}. */
  public static Double asDouble(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    throw mismatch(key, "double", v);
  }

  /** Any number, as {@code float}. */
  public static Float asFloat(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof Float f) {
      return f;
    }
    if (v instanceof Number n) {
      return n.floatValue();
    }
    throw mismatch(key, "float", v);
  }

  /** A finite number (exactly), or decimal text such as {@code "12.50"}. */
  public static BigDecimal asDecimal(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      BigDecimal d = Args.decimalOf(n);
      if (d == null) {
        throw new IllegalArgumentException("Row key '" + key + "': expected decimal but was " + n);
      }
      return d;
    }
    if (v instanceof CharSequence cs) {
      try {
        return new BigDecimal(cs.toString());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Row key '" + key + "': expected decimal but was String that is not a number");
      }
    }
    throw mismatch(key, "decimal", v);
  }

  /** An instance of {@code type}, or the exact name of one of its constants. */
  public static <E extends Enum<E>> E asEnum(Object v, Class<E> type, String key) {
    if (v == null) {
      return null;
    }
    if (type.isInstance(v)) {
      return type.cast(v);
    }
    if (v instanceof CharSequence cs) {
      String name = cs.toString();
      for (E e : type.getEnumConstants()) {
        if (e.name().equals(name)) {
          return e;
        }
      }
      throw new IllegalArgumentException("Row key '" + key + "': expected one of "
          + Arrays.toString(type.getEnumConstants()) + " but was String '" + name + "'");
    }
    throw mismatch(key, type.getSimpleName(), v);
  }

  /** A {@code UUID}, or its text. */
  public static UUID asUuid(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof UUID u) {
      return u;
    }
    if (v instanceof CharSequence cs) {
      try {
        return UUID.fromString(cs.toString());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Row key '" + key + "': expected uuid but was String that is not a UUID");
      }
    }
    throw mismatch(key, "uuid", v);
  }

  /** A {@code LocalDate}, or ISO text {@code 2026-01-31}. */
  public static LocalDate asDate(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof LocalDate d) {
      return d;
    }
    if (v instanceof CharSequence cs) {
      try {
        return LocalDate.parse(cs);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("Row key '" + key + "': expected date but was String that is not an ISO date");
      }
    }
    throw mismatch(key, "date", v);
  }

  /** An {@code Instant}, an {@code OffsetDateTime}/{@code ZonedDateTime}, a {@code java.util.Date}, or ISO text with an offset. */
  public static Instant asInstant(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof Instant i) {
      return i;
    }
    if (v instanceof OffsetDateTime o) {
      return o.toInstant();
    }
    if (v instanceof ZonedDateTime z) {
      return z.toInstant();
    }
    if (v instanceof Date d) {
      try {
        return d.toInstant();
      } catch (UnsupportedOperationException dateOnly) {
        // java.sql.Date has no time part and refuses toInstant(); its millis are still exact.
        return Instant.ofEpochMilli(d.getTime());
      }
    }
    if (v instanceof CharSequence cs) {
      return parseOffset(cs, key).toInstant();
    }
    throw mismatch(key, "instant", v);
  }

  /** An {@code OffsetDateTime}, a {@code ZonedDateTime}, an {@code Instant} (at UTC), or ISO text with an offset. */
  public static OffsetDateTime asOffsetDateTime(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof OffsetDateTime o) {
      return o;
    }
    if (v instanceof ZonedDateTime z) {
      return z.toOffsetDateTime();
    }
    if (v instanceof Instant i) {
      return i.atOffset(ZoneOffset.UTC);
    }
    if (v instanceof CharSequence cs) {
      return parseOffset(cs, key);
    }
    throw mismatch(key, "date-time", v);
  }

  private static OffsetDateTime parseOffset(CharSequence cs, String key) {
    try {
      return OffsetDateTime.parse(cs);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "Row key '" + key + "': expected date-time but was String that is not an ISO date-time with offset");
    }
  }

  /** A {@code Map} (a nested row). */
  @SuppressWarnings("unchecked")
  public static Map<String, ?> asMap(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof Map<?, ?> m) {
      return (Map<String, ?>) m;
    }
    throw mismatch(key, "object", v);
  }

  /** A {@code List}; other collections and arrays are copied into one. */
  public static List<?> asList(Object v, String key) {
    if (v == null) {
      return null;
    }
    if (v instanceof List<?> l) {
      return l;
    }
    if (v instanceof Collection<?> c) {
      return new ArrayList<>(c);
    }
    if (v.getClass().isArray()) {
      int n = Array.getLength(v);
      List<Object> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(Array.get(v, i));
      }
      return list;
    }
    throw mismatch(key, "array", v);
  }

  /** {@code v}, or {@link IllegalArgumentException} {@code Row key 'k' is missing} when {@code null}. */
  public static <T> T require(T v, String key) {
    if (v == null) {
      throw new IllegalArgumentException("Row key '" + key + "' is missing");
    }
    return v;
  }
}
