package dev.mcpfusion.samples.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.PromptResponse;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The suite's prompts, resources and completion, through the real server, in memory. */
class FeaturesTest {

  private static FusionTester tester() {
    return FusionTester.of(ConformanceConnector.builder());
  }

  @Test
  void listsThePromptsAndResourcesUnderTheSuitesNames() {
    try (FusionTester tester = tester()) {
      assertThat(tester.listPrompts()).extracting(p -> p.get("name")).containsExactlyInAnyOrder(
          "test_simple_prompt", "test_prompt_with_arguments",
          "test_prompt_with_embedded_resource", "test_prompt_with_image",
          "test_input_required_result_prompt");
      assertThat(tester.listResources()).extracting(r -> r.get("uri")).contains(
          "test://static-text", "test://static-binary", "test://watched-resource");
      assertThat(tester.listResourceTemplates()).extracting(t -> t.get("uriTemplate"))
          .containsExactly("test://template/{id}/data");
    }
  }

  @Test
  void theTaskFixturesCarryTheSuitesNamesWithoutTheRouterPrefix() {
    try (FusionTester tester = tester()) {
      assertThat(tester.listTools()).extracting(t -> t.name()).contains("greet", "slow_compute",
          "failing_job", "protocol_error_job", "confirm_delete", "multi_input")
          .noneMatch(name -> name.startsWith("tasks_"));
      // The tester calls a router's action by its logical name, whatever the tool is called.
      assertThat(tester.call("tasks", "greet", Map.of("name", "World")).dataText())
          .isEqualTo("Hello, World!");
      assertThat(tester.callTool("greet", Map.of("name", "sep-2243")).dataText())
          .isEqualTo("Hello, sep-2243!");
    }
  }

  @Test
  void readsTextBinaryAndTemplateResources() {
    try (FusionTester tester = tester()) {
      assertThat(tester.readResource("test://static-text").text())
          .isEqualTo("This is the content of the static text resource.");
      assertThat(tester.readResource("test://static-binary").blob())
          .isEqualTo(Base64.getDecoder().decode(ConformanceTools.PNG));
      assertThat(tester.readResource("test://template/a\"b/data").text())
          .isEqualTo("{\"id\":\"a\\\"b\",\"templateTest\":true,\"data\":\"Data for ID: a\\\"b\"}");
    }
  }

  @Test
  void promptArgumentsReachTheText() {
    try (FusionTester tester = tester()) {
      PromptResponse r = tester.getPrompt("test_prompt_with_arguments",
          Map.of("arg1", "x", "arg2", "y"));
      assertThat(r.messages()).hasSize(1);
      assertThat(r.messages().get(0).toString()).contains("arg1='x', arg2='y'");
      assertThat(tester.getPrompt("test_prompt_with_arguments", Map.of("arg1", "x")).isError())
          .isTrue();
    }
  }

  @Test
  void embeddedResourceAndImagePromptsCarryTheirContent() {
    try (FusionTester tester = tester()) {
      List<Map<String, Object>> embedded = tester.getPrompt("test_prompt_with_embedded_resource",
          Map.of("resourceUri", "test://example-resource")).messages();
      assertThat(embedded.get(0).toString()).contains("resource", "test://example-resource");
      List<Map<String, Object>> image = tester.getPrompt("test_prompt_with_image", Map.of()).messages();
      assertThat(image.get(0).toString()).contains("image", "image/png");
    }
  }

  @Test
  void completesArg1ByPrefix() {
    try (FusionTester tester = tester()) {
      assertThat(tester.complete("test_prompt_with_arguments", "arg1", "par").values())
          .containsExactly("paris", "park", "party");
      assertThat(tester.complete("test_prompt_with_arguments", "arg1", "pari").values())
          .containsExactly("paris");
    }
  }
}
