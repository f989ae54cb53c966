package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.samples.billing.presenter.InvoiceView_Presenter;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The billing sample's generated sources and schemas, pinned. After an intended change, regenerate
 * with {@code mvn -pl samples/billing -am verify -Dfusion.updateGolden=true} and review the diff.
 */
class GoldenFilesTest {
  private static final JsonMapper PRETTY = JsonMapper.builder()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .build();

  private static final Path GOLDEN = Path.of(System.getProperty("fusion.basedir", "."), "src/test/resources/golden");
  private static final Path GENERATED = Path.of(System.getProperty("fusion.buildDir", "target"),
      "generated-sources/annotations/dev/mcpfusion/samples/billing");

  @Test
  void generatedDispatcherMatchesGolden() throws IOException {
    assertGolden("BillingTools_Fusion.java.txt",
        Files.readString(GENERATED.resolve("tools/BillingTools_Fusion.java"), StandardCharsets.UTF_8));
  }

  @Test
  void generatedPresenterMatchesGolden() throws IOException {
    assertGolden("InvoiceView_Presenter.java.txt",
        Files.readString(GENERATED.resolve("presenter/InvoiceView_Presenter.java"), StandardCharsets.UTF_8));
  }

  @Test
  @SuppressWarnings("unchecked")
  void invoiceViewOutputSchemaMatchesGolden() throws IOException {
    String schema = InvoiceView_Presenter.INSTANCE.outputSchemaJson();
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = PRETTY.readValue(schema, Map.class);
    assertThat(tree).containsEntry("type", "object").containsEntry("additionalProperties", false);
    assertThat((List<Object>) tree.get("required")).containsExactly("id", "totalCents", "status");
    assertThat(tree).doesNotContainKey("$schema");
    assertGolden("InvoiceView.schema.json", PRETTY.writeValueAsString(tree) + "\n");
  }

  @Test
  void toolListsMatchGolden() throws IOException {
    for (Exposition exposition : Exposition.values()) {
      try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), exposition))) {
        String json = PRETTY.writeValueAsString(tester.listTools().stream().map(ToolInfo::json).toList()) + "\n";
        assertThat(json).doesNotContain("$schema");
        assertGolden("tools-" + exposition.name().toLowerCase(java.util.Locale.ROOT) + ".json", json);
      }
    }
  }

  private static void assertGolden(String name, String actual) throws IOException {
    Path file = GOLDEN.resolve(name);
    if (Boolean.getBoolean("fusion.updateGolden")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertThat(file).as("golden file %s (regenerate with -Dfusion.updateGolden=true)", name).exists();
    assertThat(actual).as("generated %s differs from %s", name, file)
        .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }
}
