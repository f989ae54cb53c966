package dev.mcpfusion.core.spi;

import dev.mcpfusion.annotation.internal.NearNames;
import dev.mcpfusion.wire.Echo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Decoding of agent input for generated dispatchers: JSON type checks, number ranges, enums,
 * identifiers and dates, each failure recorded as a {@link Problem} with a message from our own
 * catalogue (deterministic, no expression language, no locale).
 *
 * <p>Conventions shared by every decoder: {@code raw == null} (absent or JSON {@code null})
 * returns {@code null} without a problem, because required-ness is checked separately by
 * {@link #required}; a value of the wrong JSON type records
 * {@code expected <type> but was <jsonType>} (type names {@code string}, {@code number},
 * {@code integer}, {@code boolean}, {@code array}, {@code object}, {@code null}) with the value as
 * sent, and returns {@code null}.
 *
 * <p>Numbers: any {@link Number} subtype is accepted ({@code Integer}, {@code Long},
 * {@code BigInteger}, {@code BigDecimal}, {@code Double}, ...). The integral decoders accept a
 * number whose value is integral even when written with a fraction ({@code 3.0},
 * {@code BigDecimal("3.00")}): JSON does not distinguish {@code 3} from {@code 3.0} and the JSON
 * Schema {@code integer} type accepts both. A real fraction ({@code 1.5}) records
 * {@code expected integer but was number}; a value outside the Java type's range records
 * {@code must be between <MIN> and <MAX>}.
 */
public final class Args {
  private static final Pattern UUID_PATTERN = Pattern.compile(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final BigDecimal FLOAT_MAX = new BigDecimal(Float.toString(Float.MAX_VALUE));
  private static final BigDecimal DOUBLE_MAX = new BigDecimal(Double.toString(Double.MAX_VALUE));

  private Args() {}

  /** The path of field {@code name} inside {@code parent}: {@code "" + "id" -> "id"}, {@code "lines[2]" + "qty" -> "lines[2].qty"}. */
  public static String path(String parent, String name) {
    return parent == null || parent.isEmpty() ? name : parent + "." + name;
  }

  /** The path of element {@code i} of the array at {@code parent}: {@code "lines", 2 -> "lines[2]"}. */
  public static String index(String parent, int i) {
    return (parent == null ? "" : parent) + "[" + i + "]";
  }

  /**
   * The JSON type name of a plain value as the agent sent it: {@code string}, {@code number},
   * {@code boolean}, {@code array}, {@code object} or {@code null} (JSON has one number type, so an
   * integral value is a {@code number} too).
   */
  public static String jsonType(Object raw) {
    if (raw == null) {
      return "null";
    }
    if (raw instanceof CharSequence || raw instanceof Character || raw instanceof Enum<?>) {
      return "string";
    }
    if (raw instanceof Number) {
      return "number";
    }
    if (raw instanceof Boolean) {
      return "boolean";
    }
    if (raw instanceof Map<?, ?>) {
      return "object";
    }
    if (raw instanceof Collection<?> || raw.getClass().isArray()) {
      return "array";
    }
    return "string";
  }

  private static <T> T wrongType(String expected, Object raw, String path, Problems p) {
    p.add(path, "expected " + expected + " but was " + jsonType(raw), raw);
    return null;
  }

  /** A JSON object; {@code expected object but was ...} otherwise. */
  @SuppressWarnings("unchecked")
  public static Map<String, ?> object(Object raw, String path, Problems p) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof Map<?, ?> map) {
      return (Map<String, ?>) map;
    }
    return wrongType("object", raw, path, p);
  }

  /** A JSON array (a {@code List}, another {@code Collection} or a Java array); {@code expected array but was ...} otherwise. */
  public static List<?> array(Object raw, String path, Problems p) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof List<?> list) {
      return list;
    }
    if (raw instanceof Collection<?> c) {
      return new ArrayList<>(c);
    }
    if (raw instanceof Object[] a) {
      return java.util.Arrays.asList(a);
    }
    return wrongType("array", raw, path, p);
  }

  /**
   * Records {@code is not an accepted field} for every key of {@code obj} not in {@code accepted},
   * in the object's order, with {@code (did you mean "x"?)} when a near name exists (equal ignoring
   * case, at most two edits away, or a prefix either way); the problem's value is the value sent.
   */
  public static void rejectUnknown(Map<String, ?> obj, String parentPath, List<String> accepted,
      Problems p) {
    if (obj == null || obj.isEmpty()) {
      return;
    }
    // The common case, nothing unknown, without walking (or allocating) the entry set.
    int known = 0;
    for (int i = 0, n = accepted.size(); i < n; i++) {
      if (obj.containsKey(accepted.get(i))) {
        known++;
      }
    }
    if (known == obj.size()) {
      return;
    }
    for (Map.Entry<String, ?> e : obj.entrySet()) {
      String key = String.valueOf(e.getKey());
      if (accepted.contains(key)) {
        continue;
      }
      if (Echo.isLong(key)) {
        // No accepted name is that long, or near it: the path names it cut, the message its length.
        p.add(path(parentPath, Echo.cut(key)), "is not an accepted field (its name has "
            + Echo.length(key) + " characters)", e.getValue());
        continue;
      }
      String near = nearName(key, accepted);
      String message = near == null
          ? "is not an accepted field"
          : "is not an accepted field (did you mean \"" + near + "\"?)";
      p.add(path(parentPath, key), message, e.getValue());
    }
  }

  /** The accepted name closest to {@code key}, or {@code null} if none is near. */
  static String nearName(String key, List<String> accepted) {
    for (String a : accepted) {
      if (a.equalsIgnoreCase(key)) {
        return a;
      }
    }
    // Two edits at most: a field name is short, and an agent's typo is near its target.
    String best = NearNames.nearest(key, accepted, 2);
    if (best != null) {
      return best;
    }
    String lower = key.toLowerCase(Locale.ROOT);
    if (lower.length() >= 2) {
      for (String a : accepted) {
        String al = a.toLowerCase(Locale.ROOT);
        if (al.length() >= 2 && (al.startsWith(lower) || lower.startsWith(al))) {
          return a;
        }
      }
    }
    return null;
  }

  /** A JSON string. */
  public static String string(Object raw, String path, Problems p) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof CharSequence cs) {
      return cs.toString();
    }
    return wrongType("string", raw, path, p);
  }

  /** A JSON boolean. */
  public static Boolean bool(Object raw, String path, Problems p) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof Boolean b) {
      return b;
    }
    return wrongType("boolean", raw, path, p);
  }

  /** An integral JSON number in the {@code byte} range. */
  public static Byte int8(Object raw, String path, Problems p) {
    BigInteger v = integral(raw, path, p, BigInteger.valueOf(Byte.MIN_VALUE), BigInteger.valueOf(Byte.MAX_VALUE));
    return v == null ? null : v.byteValue();
  }

  /** An integral JSON number in the {@code short} range. */
  public static Short int16(Object raw, String path, Problems p) {
    BigInteger v = integral(raw, path, p, BigInteger.valueOf(Short.MIN_VALUE), BigInteger.valueOf(Short.MAX_VALUE));
    return v == null ? null : v.shortValue();
  }

  /** An integral JSON number in the {@code int} range ({@code expected integer but was number} for {@code 1.5}). */
  public static Integer int32(Object raw, String path, Problems p) {
    BigInteger v = integral(raw, path, p, BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE));
    return v == null ? null : v.intValue();
  }

  /** An integral JSON number in the {@code long} range. */
  public static Long int64(Object raw, String path, Problems p) {
    BigInteger v = integral(raw, path, p, BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE));
    return v == null ? null : v.longValue();
  }

  /** Any integral JSON number. */
  public static BigInteger bigInteger(Object raw, String path, Problems p) {
    return integral(raw, path, p, null, null);
  }

  private static BigInteger integral(Object raw, String path, Problems p, BigInteger min,
      BigInteger max) {
    if (raw == null) {
      return null;
    }
    if (!(raw instanceof Number n)) {
      return wrongType("integer", raw, path, p);
    }
    BigInteger value;
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      value = BigInteger.valueOf(n.longValue());
    } else if (n instanceof BigInteger bi) {
      value = bi;
    } else {
      BigDecimal d = decimalOf(n);
      if (d == null) {
        return wrongType("integer", raw, path, p);
      }
      if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
        return wrongType("integer", raw, path, p);
      }
      if (min != null && (d.compareTo(new BigDecimal(min)) < 0 || d.compareTo(new BigDecimal(max)) > 0)) {
        p.add(path, "must be between " + min + " and " + max, raw);
        return null;
      }
      value = d.toBigIntegerExact();
    }
    if (min != null && (value.compareTo(min) < 0 || value.compareTo(max) > 0)) {
      p.add(path, "must be between " + min + " and " + max, raw);
      return null;
    }
    return value;
  }

  /** The exact decimal value of a number, or {@code null} for a non-finite one. */
  static BigDecimal decimalOf(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof BigInteger bi) {
      return new BigDecimal(bi);
    }
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return BigDecimal.valueOf(n.longValue());
    }
    if (n instanceof Float f) {
      return Float.isFinite(f) ? new BigDecimal(Float.toString(f)) : null;
    }
    if (n instanceof Double d) {
      return Double.isFinite(d) ? new BigDecimal(Double.toString(d)) : null;
    }
    try {
      return new BigDecimal(n.toString());
    } catch (NumberFormatException e) {
      double d = n.doubleValue();
      return Double.isFinite(d) ? new BigDecimal(Double.toString(d)) : null;
    }
  }

  /** A JSON number as {@code float}; outside the float range records {@code must be between ...}. */
  public static Float float32(Object raw, String path, Problems p) {
    BigDecimal d = finite(raw, path, p);
    if (d == null) {
      return null;
    }
    if (d.abs().compareTo(FLOAT_MAX) > 0) {
      p.add(path, "must be between -" + Float.MAX_VALUE + " and " + Float.MAX_VALUE, raw);
      return null;
    }
    return raw instanceof Float f ? f : d.floatValue();
  }

  /** A JSON number as {@code double}; outside the double range records {@code must be between ...}. */
  public static Double float64(Object raw, String path, Problems p) {
    BigDecimal d = finite(raw, path, p);
    if (d == null) {
      return null;
    }
    if (d.abs().compareTo(DOUBLE_MAX) > 0) {
      p.add(path, "must be between -" + Double.MAX_VALUE + " and " + Double.MAX_VALUE, raw);
      return null;
    }
    return raw instanceof Double x ? x : d.doubleValue();
  }

  /** A JSON number as an exact {@code BigDecimal}. */
  public static BigDecimal decimal(Object raw, String path, Problems p) {
    return finite(raw, path, p);
  }

  private static BigDecimal finite(Object raw, String path, Problems p) {
    if (raw == null) {
      return null;
    }
    if (!(raw instanceof Number n)) {
      return wrongType("number", raw, path, p);
    }
    BigDecimal d = decimalOf(n);
    if (d == null) {
      p.add(path, "must be a finite number", raw);
    }
    return d;
  }

  /** An enum constant by its exact {@code name()}; {@code must be one of [A, B]} otherwise. */
  public static <E extends Enum<E>> E enumValue(Object raw, String path, Class<E> type, Problems p) {
    if (raw == null) {
      return null;
    }
    if (!(raw instanceof CharSequence cs)) {
      return wrongType("string", raw, path, p);
    }
    String name = cs.toString();
    E[] constants = type.getEnumConstants();
    for (E e : constants) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    StringBuilder names = new StringBuilder("must be one of [");
    for (int i = 0; i < constants.length; i++) {
      if (i > 0) {
        names.append(", ");
      }
      names.append(constants[i].name());
    }
    p.add(path, names.append(']').toString(), raw);
    return null;
  }

  /** A UUID in its canonical 8-4-4-4-12 hex form; {@code must be a valid UUID} otherwise. */
  public static UUID uuid(Object raw, String path, Problems p) {
    String s = string(raw, path, p);
    if (s == null) {
      return null;
    }
    if (!UUID_PATTERN.matcher(s).matches()) {
      p.add(path, "must be a valid UUID", raw);
      return null;
    }
    return UUID.fromString(s);
  }

  /** An ISO date {@code 2026-01-31}; {@code must be a date like 2026-01-31} otherwise. */
  public static LocalDate date(Object raw, String path, Problems p) {
    String s = string(raw, path, p);
    if (s == null) {
      return null;
    }
    try {
      return LocalDate.parse(s, DateTimeFormatter.ISO_LOCAL_DATE);
    } catch (DateTimeParseException e) {
      p.add(path, "must be a date like 2026-01-31", raw);
      return null;
    }
  }

  /**
   * An RFC 3339 date-time with an offset ({@code 2026-01-31T10:15:30Z} or {@code +02:00});
   * {@code must be a date-time like 2026-01-31T10:15:30Z} otherwise.
   */
  public static Instant instant(Object raw, String path, Problems p) {
    OffsetDateTime t = offsetDateTime(raw, path, p);
    return t == null ? null : t.toInstant();
  }

  /** An RFC 3339 date-time with an offset; {@code must be a date-time like 2026-01-31T10:15:30Z} otherwise. */
  public static OffsetDateTime offsetDateTime(Object raw, String path, Problems p) {
    String s = string(raw, path, p);
    if (s == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (DateTimeParseException e) {
      p.add(path, "must be a date-time like 2026-01-31T10:15:30Z", raw);
      return null;
    }
  }

  /**
   * Records {@code is required} (value {@link Problems#MISSING}) when {@code decoded} is
   * {@code null} and no problem was recorded for {@code path} yet.
   */
  public static void required(Object decoded, String path, Problems p) {
    if (decoded == null && !p.has(path)) {
      p.add(path, "is required", Problems.MISSING);
    }
  }

  /**
   * The whole input of an {@code @InputSchema} action: the arguments as plain JSON values, already
   * validated against the action's schema document by the runtime; an unmodifiable copy.
   */
  public static Map<String, Object> document(Map<String, ?> arguments) {
    return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(arguments));
  }
}
