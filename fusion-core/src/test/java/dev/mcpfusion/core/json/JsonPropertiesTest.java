package dev.mcpfusion.core.json;

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
    Arbitrary<Object> maps = Arbitraries.maps(Arbitraries.strings().all().ofMaxLength(8), tree(depth - 1))
        .ofMaxSize(4).map(m -> (Object) new LinkedHashMap<>(m));
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
}
