package dev.mcpfusion.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class JsonTest {
  @Test
  void writesCompactJsonKeepingMapOrder() {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("z", 1);
    tree.put("a", List.of(true, false));
    tree.put("m", null);
    tree.put("s", "x");
    tree.put("n", Map.of());
    assertThat(Json.write(tree)).isEqualTo("{\"z\":1,\"a\":[true,false],\"m\":null,\"s\":\"x\",\"n\":{}}");
  }

  @Test
  void escapesQuotesBackslashesAndControlCharacters() {
    assertThat(Json.write("a\"b\\c\n\r\t\b\f\u0000\u001f/é😀<&>"))
        .isEqualTo("\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0000\\u001f/é😀<&>\"");
  }

  @Test
  void loneSurrogatesBecomeTheReplacementCharacterSoEveryParserAcceptsTheText() {
    assertThat(Json.write("x\ud800y\udc00")).isEqualTo("\"x\ufffdy\ufffd\"");
    assertThat(Json.parse(Json.write(Map.of("k\ud800", "v")))).isEqualTo(Map.of("k\ufffd", "v"));
  }

  @Test
  void numbersKeepTheirExactValue() {
    assertThat(Json.write(List.of(1, 2L, (short) 3, (byte) 4, new BigInteger("123456789012345678901234567890"))))
        .isEqualTo("[1,2,3,4,123456789012345678901234567890]");
    assertThat(Json.write(new BigDecimal("12.50"))).isEqualTo("12.50");
    assertThat(Json.write(new BigDecimal("1E+3"))).isEqualTo("1E+3");
    assertThat(Json.write(0.1)).isEqualTo("0.1");
    assertThat(Json.write(0.1f)).isEqualTo("0.1");
    assertThat(Json.write(1e300)).isEqualTo("1.0E300");
  }

  @Test
  void nonFiniteNumbersAreRejected() {
    assertThatThrownBy(() -> Json.write(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Json.write(List.of(Double.POSITIVE_INFINITY))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Json.write(Float.NEGATIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void scalarConveniencesAreWrittenAsStrings() {
    UUID id = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    assertThat(Json.write(Arrays.asList(Thread.State.NEW, 'c', id, LocalDate.of(2026, 1, 31))))
        .isEqualTo("[\"NEW\",\"c\",\"123e4567-e89b-12d3-a456-426614174000\",\"2026-01-31\"]");
  }

  @Test
  void nonPlainValuesAreRejected() {
    assertThatThrownBy(() -> Json.write(new Object())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Object");
    assertThatThrownBy(() -> Json.write(Map.of(1, "x"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("keys must be strings");
  }

  @Test
  void cyclesFailInsteadOfOverflowing() {
    List<Object> cycle = new ArrayList<>();
    cycle.add(cycle);
    assertThatThrownBy(() -> Json.write(cycle)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void parsesToPlainTypes() {
    Object tree = Json.parse("{\"s\":\"x\",\"i\":1,\"big\":123456789012345678901234567890,"
        + "\"d\":1.50,\"e\":1e3,\"b\":true,\"n\":null,\"a\":[1,{\"k\":[]}]}");
    assertThat(tree).isInstanceOf(LinkedHashMap.class);
    Map<?, ?> map = (Map<?, ?>) tree;
    assertThat(List.copyOf(map.keySet())).isEqualTo(List.of("s", "i", "big", "d", "e", "b", "n", "a"));
    assertThat(map.get("i")).isEqualTo(1L);
    assertThat(map.get("big")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(map.get("d")).isEqualTo(new BigDecimal("1.50"));
    assertThat(map.get("e")).isEqualTo(new BigDecimal("1e3"));
    assertThat(map.get("b")).isEqualTo(Boolean.TRUE);
    assertThat(map.containsKey("n")).isTrue();
    assertThat(map.get("n")).isNull();
    assertThat(map.get("a")).isInstanceOf(ArrayList.class);
    assertThat(Json.parse("\"top\"")).isEqualTo("top");
    assertThat(Json.parse("null")).isNull();
  }

  @Test
  void parserIsStrict() {
    for (String bad : List.of("{\"a\":1,\"a\":2}", "{\"a\":1} x", "[1,]", "{'a':1}", "NaN",
        "[Infinity]", "// c\n1", "", "   ", "{\"a\":1", "01")) {
      assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void convertsJacksonTreesToPlainTrees() {
    var node = JsonMapper.builder().build().readTree("{\"a\":[1,2.5,\"x\",null,false],\"o\":{}}");
    assertThat(Json.write(Json.fromNode(node))).isEqualTo("{\"a\":[1,2.5,\"x\",null,false],\"o\":{}}");
    assertThat(Json.fromNode(null)).isNull();
  }
}
