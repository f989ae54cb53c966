package dev.mcpfusion.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

class JsonPropertiesTest {
  @Provide
  Arbitrary<Object> trees() {
    return tree(3);
  }

  private Arbitrary<Object> tree(int depth) {
    Arbitrary<Object> scalars = Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(20).map(s -> (Object) s),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.bigIntegers().between(new BigInteger("-1" + "0".repeat(30)), new BigInteger("1" + "0".repeat(30)))
            .map(b -> (Object) b),
        Arbitraries.bigDecimals().ofScale(4).map(d -> (Object) d),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.just(null));
    if (depth == 0) {
      return scalars;
    }
    Arbitrary<Object> lists = tree(depth - 1).list().ofMaxSize(4).map(l -> (Object) new ArrayList<>(l));
    // Keys that differ only in a lone surrogate are one key once written (each becomes U+FFFD),
    // so such maps cannot round-trip; the writer's contract is about the well-formed text.
    Arbitrary<Object> maps = Arbitraries.maps(Arbitraries.strings().all().ofMaxLength(8), tree(depth - 1))
        .ofMaxSize(4)
        .filter(m -> m.keySet().stream().map(JsonPropertiesTest::wellFormed).distinct().count() == m.size())
        .map(m -> (Object) new LinkedHashMap<>(m));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, scalars), net.jqwik.api.Tuple.of(1, lists), net.jqwik.api.Tuple.of(1, maps));
  }

  /** What the parser gives back for a written value: longs for small integers, BigDecimal for fractions. */
  private static Object normalized(Object v) {
    if (v instanceof String s) {
      return wellFormed(s);
    }
    if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(wellFormed((String) k), normalized(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(normalized(x)));
      return out;
    }
    if (v instanceof BigInteger b && b.bitLength() < 64) {
      return b.longValue();
    }
    if (v instanceof BigDecimal d) {
      return d; // ofScale(4) always has a fraction part, so it parses back as the same BigDecimal
    }
    return v;
  }

  /** {@code s} with every lone surrogate replaced by U+FFFD, as the writer does. */
  private static String wellFormed(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        b.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        b.append('\ufffd');
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  @Property(tries = 300)
  void writeThenParseGivesTheSameTree(@ForAll("trees") Object tree) {
    String text = Json.write(tree);
    assertThat(Json.parse(text)).isEqualTo(normalized(tree));
  }

  @Property(tries = 300)
  void writingIsDeterministicAndIdempotentThroughParse(@ForAll("trees") Object tree) {
    String text = Json.write(tree);
    assertThat(Json.write(tree)).isEqualTo(text);
    assertThat(Json.write(Json.parse(text))).isEqualTo(text);
  }

  @Property(tries = 500)
  void anyStringSurvivesTheRoundTripAndNoRawControlCharacterIsWritten(@ForAll String s) {
    String text = Json.write(s);
    assertThat(Json.parse(text)).isEqualTo(wellFormed(s));
    assertThat(text.chars().filter(c -> c < 0x20)).isEmpty();
  }

  @Property(tries = 200)
  void finiteDoublesRoundTripExactly(@ForAll double d) {
    if (!Double.isFinite(d)) {
      return;
    }
    Object parsed = Json.parse(Json.write(d));
    assertThat(((Number) parsed).doubleValue()).isEqualTo(d);
  }

  // ------------------------------------------------------------------ the direct-writer helpers

  /**
   * The escaper as first written, one character at a time: the reference the run-copying
   * {@code Json.string} (used by {@code write} and {@code appendString}) must match.
   */
  private static String referenceString(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else if (Character.isHighSurrogate(c)) {
            if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              out.append('\ufffd');
            }
          } else if (Character.isLowSurrogate(c)) {
            out.append('\ufffd');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  @Provide
  Arbitrary<String> nastyStrings() {
    Arbitrary<String> pieces = Arbitraries.of("", "a", "\"", "\\", "/", "\u0000", "\b", "\f", "\n",
        "\r", "\t", "\u001f", "\u007f", "\u2028", "\ud800", "\udbff", "\udc00", "\udfff",
        "\ud83d\udcca", "\u00e9", "\uffff", "\ufffd", "\uD83D", "<&>");
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.strings().all().ofMaxLength(30)),
        Tuple.of(1, pieces.list().ofMaxSize(12).map(l -> String.join("", l))));
  }

  @Property(tries = 1000)
  void stringsAreEscapedExactlyAsTheReferenceEscaper(@ForAll("nastyStrings") String s) {
    String expected = referenceString(s);
    assertThat(Json.write(s)).isEqualTo(expected);
    StringBuilder out = new StringBuilder("x");
    Json.appendString(s, out);
    assertThat(out.toString()).isEqualTo("x" + expected);
    StringBuilder fromBuilder = new StringBuilder();
    Json.appendString(new StringBuilder(s), fromBuilder);
    assertThat(fromBuilder.toString()).isEqualTo(expected);
  }

  @Property(tries = 300)
  void appendValueAppendsWhatWriteReturns(@ForAll("trees") Object tree) {
    StringBuilder out = new StringBuilder("[");
    Json.appendValue(tree, out);
    assertThat(out.toString()).isEqualTo("[" + Json.write(tree));
  }

  /** What {@code write} gives for a value: its text, or the message of the exception it throws. */
  private static String outcome(Runnable r, StringBuilder out) {
    try {
      r.run();
      return out.toString();
    } catch (IllegalArgumentException e) {
      return "IAE " + e.getMessage();
    }
  }

  private static String writeOutcome(Object value) {
    try {
      return Json.write(value);
    } catch (IllegalArgumentException e) {
      return "IAE " + e.getMessage();
    }
  }

  @Provide
  Arbitrary<Double> allDoubles() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.longs().map(Double::longBitsToDouble)),
        Tuple.of(1, Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            -0.0, 0.0, Double.MIN_VALUE, Double.MAX_VALUE, 1e21, 1e-7, 1e7, 1e-3, 0.1 + 0.2,
            (double) Long.MIN_VALUE, 9007199254740993.0)));
  }

  @Provide
  Arbitrary<Float> allFloats() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.integers().map(Float::intBitsToFloat)),
        Tuple.of(1, Arbitraries.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            -0.0f, Float.MIN_VALUE, Float.MAX_VALUE, 1e21f, 1e-7f, 0.1f)));
  }

  @Property(tries = 1000)
  void doublesAreAppendedAsWriteWritesThemNaNIncluded(@ForAll("allDoubles") double d) {
    StringBuilder out = new StringBuilder();
    assertThat(outcome(() -> Json.appendNumber(d, out), out)).isEqualTo(writeOutcome(d));
  }

  @Property(tries = 1000)
  void floatsAreAppendedAsWriteWritesThemNaNIncluded(@ForAll("allFloats") float f) {
    StringBuilder out = new StringBuilder();
    assertThat(outcome(() -> Json.appendNumber(f, out), out)).isEqualTo(writeOutcome(f));
  }

  @Property(tries = 500)
  void integralNumbersAreTheirDecimalDigits(@ForAll long l, @ForAll int i) {
    assertThat(Json.write(l)).isEqualTo(Long.toString(l)).isEqualTo(new StringBuilder().append(l).toString());
    assertThat(Json.write(i)).isEqualTo(Integer.toString(i)).isEqualTo(new StringBuilder().append(i).toString());
    assertThat(Json.write(List.of(Long.MIN_VALUE, Integer.MIN_VALUE))).isEqualTo("[-9223372036854775808,-2147483648]");
  }
}
