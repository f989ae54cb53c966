package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CanonicalPropertiesTest {

  @Provide
  Arbitrary<Object> trees() {
    return tree(3);
  }

  private Arbitrary<Object> tree(int depth) {
    Arbitrary<Object> scalar = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
        Arbitraries.longs().map(l -> (Object) l),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.just(null));
    if (depth == 0) {
      return scalar;
    }
    Arbitrary<Object> child = tree(depth - 1);
    Arbitrary<Object> list = child.list().ofMaxSize(4).map(l -> (Object) l);
    Arbitrary<Object> map = Arbitraries.maps(Arbitraries.strings().ofMaxLength(8), child).ofMaxSize(4)
        .map(m -> (Object) new LinkedHashMap<>(m));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, scalar), net.jqwik.api.Tuple.of(1, list), net.jqwik.api.Tuple.of(2, map));
  }

  @Property(tries = 300)
  void theIndentedTextParsesBackToTheSameSortedTree(@ForAll("trees") Object tree) {
    String text = Canonical.pretty(tree);
    assertThat(text).endsWith("\n");
    Object parsed = Json.parse(text);
    assertThat(Json.write(parsed)).isEqualTo(Canonical.compact(tree));
    assertKeysSorted(parsed);
  }

  @Property(tries = 300)
  void theDigestDoesNotDependOnKeyInsertionOrder(@ForAll("trees") Object tree) {
    assertThat(Canonical.digest(reversed(tree))).isEqualTo(Canonical.digest(tree));
    assertThat(Canonical.pretty(reversed(tree))).isEqualTo(Canonical.pretty(tree));
  }

  private static Object reversed(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
      Collections.reverse(entries);
      Map<String, Object> out = new LinkedHashMap<>();
      entries.forEach(e -> out.put((String) e.getKey(), reversed(e.getValue())));
      return out;
    }
    if (tree instanceof List<?> list) {
      return list.stream().map(CanonicalPropertiesTest::reversed).toList();
    }
    return tree;
  }

  private static void assertKeysSorted(Object node) {
    if (node instanceof Map<?, ?> map) {
      List<String> keys = new ArrayList<>();
      map.keySet().forEach(k -> keys.add((String) k));
      assertThat(keys).isSorted();
      map.values().forEach(CanonicalPropertiesTest::assertKeysSorted);
    } else if (node instanceof List<?> list) {
      list.forEach(CanonicalPropertiesTest::assertKeysSorted);
    }
  }
}
