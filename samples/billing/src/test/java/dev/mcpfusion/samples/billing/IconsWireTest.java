package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.testing.FusionTester;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code @Icon} on prompts, resources and resource templates is the MCP {@code icons} array in both
 * protocol eras, in the order written, with each optional key only when set; a member without an
 * icon carries no {@code icons} key.
 */
class IconsWireTest {

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void promptsResourcesAndTemplatesListTheirIconsAsWritten(String version) {
    try (FusionTester tester = TitlesWireTest.tester(Exposition.FLAT, version)) {
      assertThat(icons(tester.listPrompts(), "name")).containsExactly(
          Map.entry("draft_reply", "[{\"src\":\"https://desk.example/reply-48.png\","
              + "\"mimeType\":\"image/png\",\"sizes\":[\"48x48\"]},"
              + "{\"src\":\"https://desk.example/reply-dark.svg\",\"mimeType\":\"image/svg+xml\","
              + "\"sizes\":[\"any\"],\"theme\":\"dark\"}]"),
          Map.entry("summary", "-"));
      assertThat(icons(tester.listResources(), "uri")).containsExactly(
          Map.entry("desk://handbook", "[{\"src\":\"data:image/svg+xml;base64,PHN2Zy8+\"}]"),
          Map.entry("desk://faq", "-"));
      assertThat(icons(tester.listResourceTemplates(), "uriTemplate")).containsExactly(
          Map.entry("desk://tickets/{id}",
              "[{\"src\":\"https://desk.example/ticket.png\",\"theme\":\"light\"}]"));
      for (String message : tester.rawMessages()) {
        assertThat(message).doesNotContain("\"icons\":[]").doesNotContain("\"mimeType\":\"\"")
            .doesNotContain("\"theme\":\"\"").doesNotContain("\"sizes\":[]");
      }
    }
  }

  /** {@code key → icons as sent}, {@code "-"} where the member has no {@code icons} key. */
  private static Map<String, String> icons(List<Map<String, Object>> members, String key) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map<String, Object> m : members) {
      out.put((String) m.get(key), m.containsKey("icons") ? Json.write(m.get("icons")) : "-");
    }
    return out;
  }
}
