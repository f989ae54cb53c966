package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** IDEs complete and document every mcpfusion.* property from the metadata in the jar. */
class ConfigurationMetadataTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metadata() throws Exception {
    try (InputStream in = FusionProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("spring-configuration-metadata.json in the starter").isNotNull();
      return JsonMapper.builder().build().readValue(in, Map.class);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyPropertyIsDescribedWithItsDefault() throws Exception {
    List<Map<String, Object>> properties = (List<Map<String, Object>>) metadata().get("properties");
    assertThat(properties).extracting(p -> p.get("name")).containsExactlyInAnyOrder(
        "mcpfusion.enabled", "mcpfusion.name", "mcpfusion.version", "mcpfusion.exposition",
        "mcpfusion.separator", "mcpfusion.http.enabled", "mcpfusion.http.path",
        "mcpfusion.http.allowed-origins", "mcpfusion.http.allowed-hosts", "mcpfusion.http.max-body-size",
        "mcpfusion.http.request-timeout", "mcpfusion.http.session-idle-timeout", "mcpfusion.http.shutdown-grace",
        "mcpfusion.http.max-sessions", "mcpfusion.limits.max-concurrent", "mcpfusion.limits.queue",
        "mcpfusion.limits.timeout", "mcpfusion.limits.max-egress-bytes", "mcpfusion.security.enabled",
        "mcpfusion.security.resource", "mcpfusion.security.authorization-servers", "mcpfusion.security.scopes");
    assertThat(properties).allSatisfy(p -> assertThat((String) p.get("description")).isNotBlank());
    assertThat(properties).filteredOn(p -> p.get("name").equals("mcpfusion.http.path"))
        .singleElement().satisfies(p -> assertThat(p.get("defaultValue")).isEqualTo("/mcp"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSeparatorOffersItsTwoValues() throws Exception {
    List<Map<String, Object>> hints = (List<Map<String, Object>>) metadata().get("hints");
    assertThat(hints).filteredOn(h -> h.get("name").equals("mcpfusion.separator")).singleElement()
        .satisfies(h -> assertThat((List<Map<String, Object>>) h.get("values"))
            .extracting(v -> v.get("value")).containsExactly("_", "-"));
  }
}
