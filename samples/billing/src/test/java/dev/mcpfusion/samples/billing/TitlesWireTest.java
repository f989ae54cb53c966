package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.fixtures.TitledTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code title =} on verbs, prompts and resources is the MCP {@code title} in both protocol eras;
 * an element without one carries no {@code title} key at all (never {@code "title": null}).
 */
class TitlesWireTest {
  static FusionTester tester(Exposition exposition, String version) {
    return FusionTester.of(FusionServer.builder("desk", "1").register(new TitledTools())
        .exposition(exposition)).protocolVersion(version);
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void flatToolsCarryTheirTitleTwiceAndUntitledOnesNone(String version) {
    try (FusionTester tester = tester(Exposition.FLAT, version)) {
      Map<String, String> titles = new LinkedHashMap<>();
      Map<String, String> annotationTitles = new LinkedHashMap<>();
      for (ToolInfo tool : tester.listTools()) {
        titles.put(tool.name(), String.valueOf(tool.title()));
        annotationTitles.put(tool.name(), String.valueOf(tool.annotations().title()));
      }
      assertThat(titles).containsExactly(Map.entry("desk_list_tickets", "Open tickets"),
          Map.entry("desk_close_ticket", "Close ticket"), Map.entry("desk_ping", "Ping"),
          Map.entry("desk_count_tickets", "null"));
      assertThat(annotationTitles).isEqualTo(titles);
      String list = toolsListMessage(tester);
      assertThat(list).contains("\"title\":\"Open tickets\"");
      assertThat(list).doesNotContain("\"title\":null");
      // desk_count_tickets: neither the tool nor its annotations have a title key.
      String count = list.substring(list.indexOf("\"name\":\"desk_count_tickets\""));
      assertThat(count.substring(0, count.indexOf("\"inputSchema\""))).doesNotContain("title");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aGroupedToolHasNoTitle(String version) {
    try (FusionTester tester = tester(Exposition.GROUPED, version)) {
      ToolInfo desk = tester.listTools().get(0);
      assertThat(desk.title()).isNull();
      assertThat(desk.annotations().title()).isNull();
      assertThat(toolsListMessage(tester)).doesNotContain("\"title\"");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void promptsAndResourcesCarryTheirTitleAndUntitledOnesNone(String version) {
    try (FusionTester tester = tester(Exposition.FLAT, version)) {
      assertThat(titles(tester.listPrompts(), "name"))
          .containsExactly(Map.entry("draft_reply", "Draft a reply"), Map.entry("summary", "-"));
      assertThat(titles(tester.listResources(), "uri"))
          .containsExactly(Map.entry("desk://handbook", "Handbook"), Map.entry("desk://faq", "-"));
      assertThat(titles(tester.listResourceTemplates(), "uriTemplate"))
          .containsExactly(Map.entry("desk://tickets/{id}", "Ticket"));
      for (String message : tester.rawMessages()) {
        assertThat(message).doesNotContain("\"title\":null");
      }
    }
  }

  /** {@code key → title}, {@code "-"} where the element has no {@code title} key. */
  private static Map<String, String> titles(List<Map<String, Object>> elements, String key) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map<String, Object> e : elements) {
      out.put((String) e.get(key), e.containsKey("title") ? (String) e.get("title") : "-");
    }
    return out;
  }

  /** The raw {@code tools/list} answer the client received. */
  private static String toolsListMessage(FusionTester tester) {
    List<String> withTools = tester.rawMessages().stream()
        .filter(m -> m.contains("\"tools\":[")).toList();
    assertThat(withTools).isNotEmpty();
    return withTools.get(withTools.size() - 1);
  }
}
