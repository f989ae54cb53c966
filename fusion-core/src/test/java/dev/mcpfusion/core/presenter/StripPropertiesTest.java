package dev.mcpfusion.core.presenter;

import static dev.mcpfusion.core.presenter.Fixtures.FLAT;
import static dev.mcpfusion.core.presenter.Fixtures.PRESENTER;
import static dev.mcpfusion.core.presenter.Fixtures.action;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class StripPropertiesTest {
  private static final Set<String> DECLARED = Set.of("id", "totalCents", "status");

  @Provide
  Arbitrary<Map<String, String>> extras() {
    return Arbitraries.maps(
        Arbitraries.strings().all().ofMinLength(1).ofMaxLength(12).filter(k -> !DECLARED.contains(k)),
        Arbitraries.strings().alpha().ofMinLength(0).ofMaxLength(10)).ofMaxSize(6);
  }

  @Property(tries = 200)
  void undeclaredRowKeysNeverReachAnyPartOfTheReply(@ForAll("extras") Map<String, String> extras,
      @ForAll @IntRange(min = 1, max = 120) int rows, @ForAll boolean nested) {
    String sentinel = "SENTINEL-7f3a9c01b2de";
    List<Map<String, Object>> data = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      extras.forEach((k, v) -> row.put(k, nested ? Map.of("deep", List.of(v + sentinel)) : v + sentinel));
      row.put("id", "INV-" + i);
      row.put("totalCents", (long) i);
      row.put("status", i % 2 == 0 ? "OPEN" : "PAID");
      row.put("webhookSecret", sentinel);
      data.add(row);
    }

    Reply reply = ResultPresenter.present(action(ResultShape.COLLECTION, ElementKind.MAP, PRESENTER), data, FLAT);

    assertThat(reply.text()).doesNotContain(sentinel);
    assertThat(Json.write(reply.structuredContent())).doesNotContain(sentinel).doesNotContain("webhookSecret");
    assertThat(Json.write(reply.meta())).doesNotContain(sentinel);
    for (Object item : (List<?>) reply.structuredContent().get("items")) {
      assertThat(DECLARED).containsAll(((Map<?, ?>) item).keySet().stream().map(String::valueOf).toList());
    }
  }
}
