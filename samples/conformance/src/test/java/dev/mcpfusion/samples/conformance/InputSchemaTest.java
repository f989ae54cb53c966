package dev.mcpfusion.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code @InputSchema}: {@code json_schema_2020_12_tool}'s input is the document
 * {@code schemas/json_schema_2020_12_tool.json}, listed unchanged in both eras ({@code $schema},
 * {@code $defs} with {@code $anchor}, {@code allOf}/{@code anyOf}, {@code if}/{@code then}/{@code else}
 * kept) and enforced at call time by a JSON Schema validator with the same
 * {@code <validation_error>} a record input gets.
 */
class InputSchemaTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String TOOL = "json_schema_2020_12_tool";

  /** The resource's document as compact JSON, its keys in document order. */
  private static String document() throws IOException {
    try (InputStream in = InputSchemaTest.class.getResourceAsStream("/schemas/" + TOOL + ".json")) {
      return JSON.writeValueAsString(JSON.readTree(in));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void toolsListCarriesTheDocumentByteForByte(String version) throws IOException {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(version)) {
      tester.listTools();
      String list = tester.rawMessages().stream().filter(m -> m.contains("\"" + TOOL + "\""))
          .reduce((a, b) -> b).orElseThrow();
      assertThat(list).contains("\"inputSchema\":" + document());
      assertThat(document()).contains("\"$schema\"", "\"$defs\"", "\"$anchor\"", "\"allOf\"",
          "\"anyOf\"", "\"if\"", "\"then\"", "\"else\"");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void argumentsThatBreakTheDocumentGetTheValidationEnvelope(String version) {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(version)) {
      // anyOf: neither phone nor email.
      ToolResult none = tester.callTool(TOOL, Map.of("name", "Ada"));
      assertThat(none.isError()).isTrue();
      assertThat(none.blocks().get(0)).startsWith("<validation_error");
      assertThat(none.fieldErrors()).isNotEmpty();
      // if/then: contactMethod phone needs a phone; additionalProperties false: no zip.
      ToolResult phone = tester.callTool(TOOL, Map.of("contactMethod", "phone", "email", "a@b.c",
          "zip", "1234"));
      assertThat(phone.isError()).isTrue();
      assertThat(phone.blocks().get(0)).startsWith("<validation_error").contains("phone").contains("zip");
      // $ref into $defs: the address's city must be a string.
      ToolResult address = tester.callTool(TOOL, Map.of("email", "a@b.c",
          "address", Map.of("city", 12)));
      assertThat(address.isError()).isTrue();
      assertThat(address.fieldErrors()).extracting(ToolResult.FieldError::path).contains("address.city");
      // What the document accepts reaches the handler as plain JSON values.
      ToolResult ok = tester.callTool(TOOL, Map.of("name", "Ada", "email", "a@b.c",
          "address", Map.of("city", "Paris")));
      assertThat(ok.isSuccess()).as(ok.blocks().toString()).isTrue();
      assertThat(ok.blocks()).anyMatch(b -> b.contains("name=Ada") && b.contains("city=Paris"));
    }
  }
}
