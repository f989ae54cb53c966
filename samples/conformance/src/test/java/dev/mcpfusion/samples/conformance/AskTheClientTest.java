package dev.mcpfusion.samples.conformance;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sampling and elicitation: the server asks the client in the middle of a call. */
class AskTheClientTest {

  private static FusionTester tester() {
    return FusionTester.of(ConformanceConnector.builder());
  }

  @Test
  void samplingSendsTheConversationAndReturnsTheModelsText() {
    try (FusionTester tester = tester().answerSampling("Paris")) {
      ToolResult r = tester.callTool("test_sampling", Map.of("prompt", "Capital of France?"));
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("LLM response: Paris");
      FusionTester.ClientRequest asked = tester.clientRequests().get(0);
      assertThat(asked.method()).isEqualTo("sampling/createMessage");
      assertThat(asked.params()).containsEntry("maxTokens", 100L);
      assertThat(asked.params().get("messages")).isEqualTo(List.of(
          Map.of("role", "user", "content", Map.of("type", "text", "text", "Capital of France?"))));
    }
  }

  @Test
  void samplingWithoutTheClientCapabilityIsAClearError() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.callTool("test_sampling", Map.of("prompt", "hi"));
      assertThat(r).isError().hasCode("CLIENT_UNAVAILABLE");
      assertThat(r.errorText()).contains("did not declare the 'sampling' capability");
      assertThat(tester.clientRequests()).isEmpty();
    }
  }

  @Test
  void aClientThatRefusesSamplingIsAClientError() {
    try (FusionTester tester = tester().answerSampling(params -> {
      throw new IllegalStateException("user denied the request");
    })) {
      ToolResult r = tester.callTool("test_sampling", Map.of("prompt", "hi"));
      assertThat(r).isError().hasCode("CLIENT_ERROR");
      assertThat(r.errorText()).contains("user denied the request");
    }
  }

  @Test
  void samplingInThe2026EraCompletesThroughAnInputRequiredResult() {
    try (FusionTester tester = tester().protocolVersion(FusionTester.MODERN).answerSampling("Paris")) {
      ToolResult r = tester.callTool("test_sampling", Map.of("prompt", "Capital of France?"));
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("LLM response: Paris");
      assertThat(tester.clientRequests()).extracting(FusionTester.ClientRequest::method)
          .containsExactly("sampling/createMessage");
    }
  }

  @Test
  void a2026ClientWithoutTheCapabilityGetsMissingRequiredClientCapability() {
    try (FusionTester tester = tester().protocolVersion(FusionTester.MODERN)) {
      ToolResult r = tester.callTool("test_missing_capability", Map.of());
      assertThat(r.jsonRpcError()).isNotNull();
      assertThat(r.jsonRpcError().code()).isEqualTo(-32021);
      assertThat(r.jsonRpcError().data()).isEqualTo(Map.of("requiredCapabilities", Map.of("sampling", Map.of())));
    }
  }

  @Test
  void anAcceptedFormReachesTheHandlerAsTheRecord() {
    try (FusionTester tester = tester().acceptElicitation(
        Map.of("username", "ada", "email", "ada@example.com"))) {
      ToolResult r = tester.callTool("test_elicitation", Map.of("message", "Who are you?"));
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo(
          "User response: action=accept, content={\"username\":\"ada\",\"email\":\"ada@example.com\"}");
      Map<String, Object> params = tester.clientRequests().get(0).params();
      assertThat(params).containsEntry("message", "Who are you?");
      assertThat(params.get("requestedSchema")).isEqualTo(Map.of(
          "type", "object",
          "properties", Map.of(
              "username", Map.of("type", "string", "description", "User's response"),
              "email", Map.of("type", "string", "description", "User's email address")),
          "required", List.of("username", "email")));
    }
  }

  @Test
  void declineAndCancelReachTheHandlerWithoutValues() {
    try (FusionTester tester = tester().declineElicitation()) {
      assertThat(tester.callTool("test_elicitation", Map.of("message", "m")).dataText())
          .isEqualTo("User response: action=decline, content={}");
    }
    try (FusionTester tester = tester().cancelElicitation()) {
      assertThat(tester.callTool("test_elicitation", Map.of("message", "m")).dataText())
          .isEqualTo("User response: action=cancel, content={}");
    }
  }

  @Test
  void anAnswerThatDoesNotMatchTheFormIsAClearError() {
    try (FusionTester tester = tester().acceptElicitation(Map.of("username", 42, "phone", "555"))) {
      ToolResult r = tester.callTool("test_elicitation", Map.of("message", "Who are you?"));
      assertThat(r).isError().hasCode("INVALID_ELICITATION");
      assertThat(r.errorText())
          .contains("does not match it")
          .contains("'username' must be a string but was 42")
          .contains("'email' is required but missing")
          .contains("'phone' is not a field of the form");
    }
  }

  @Test
  void anEnumAnswerOutsideItsOptionsIsAClearError() {
    try (FusionTester tester = tester().acceptElicitation(Map.of("titledSingle", "value9",
        "untitledMulti", List.of("option1", "option2", "option3", "option1")))) {
      ToolResult r = tester.callTool("test_elicitation_sep1330_enums", Map.of());
      assertThat(r).isError().hasCode("INVALID_ELICITATION");
      assertThat(r.errorText())
          .contains("'titledSingle' must be one of [value1, value2, value3] but was 'value9'")
          .contains("'untitledMulti' allows at most 3 choices but had 4");
    }
  }

  @Test
  void anUnknownActionIsAClearError() {
    try (FusionTester tester = tester().answerElicitation(params -> Map.of("action", "maybe"))) {
      ToolResult r = tester.callTool("test_elicitation", Map.of("message", "m"));
      assertThat(r).isError().hasCode("INVALID_ELICITATION");
      assertThat(r.errorText()).contains("'maybe'").contains("accept, decline or cancel");
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void defaultsComeFromTheRecordInstance() {
    try (FusionTester tester = tester().acceptElicitation(Map.of("name", "Jane", "age", 25,
        "score", 88.5, "status", "inactive", "verified", false))) {
      ToolResult r = tester.callTool("test_elicitation_sep1034_defaults", Map.of());
      assertThat(r.dataText()).isEqualTo("Elicitation completed: action=accept, content="
          + "{\"name\":\"Jane\",\"age\":25,\"score\":88.5,\"status\":\"inactive\",\"verified\":false}");
      Map<String, Object> schema = (Map<String, Object>) tester.clientRequests().get(0).params()
          .get("requestedSchema");
      Map<String, Map<String, Object>> p = (Map<String, Map<String, Object>>) schema.get("properties");
      assertThat(p.get("name")).containsEntry("type", "string").containsEntry("default", "John Doe");
      assertThat(p.get("age")).containsEntry("type", "integer").containsEntry("default", 30L);
      assertThat(p.get("score")).containsEntry("type", "number").containsEntry("default", new java.math.BigDecimal("95.5"));
      assertThat(p.get("status")).containsEntry("enum", List.of("active", "inactive", "pending"))
          .containsEntry("default", "active");
      assertThat(p.get("verified")).containsEntry("type", "boolean").containsEntry("default", true);
      assertThat(schema.get("required")).isEqualTo(List.of());
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void enumFieldsUseTheShapesOfSep1330() {
    try (FusionTester tester = tester().declineElicitation()) {
      tester.callTool("test_elicitation_sep1330_enums", Map.of());
      Map<String, Object> schema = (Map<String, Object>) tester.clientRequests().get(0).params()
          .get("requestedSchema");
      Map<String, Map<String, Object>> p = (Map<String, Map<String, Object>>) schema.get("properties");
      assertThat(p.get("untitledSingle")).containsEntry("type", "string")
          .containsEntry("enum", List.of("option1", "option2", "option3"));
      assertThat(p.get("titledSingle")).containsEntry("type", "string").containsEntry("oneOf", List.of(
          Map.of("const", "value1", "title", "First Option"),
          Map.of("const", "value2", "title", "Second Option"),
          Map.of("const", "value3", "title", "Third Option")));
      assertThat(p.get("legacyEnum")).containsEntry("enum", List.of("opt1", "opt2", "opt3"))
          .containsEntry("enumNames", List.of("Option One", "Option Two", "Option Three"));
      assertThat(p.get("untitledMulti")).containsEntry("type", "array").containsEntry("minItems", 1L)
          .containsEntry("maxItems", 3L)
          .containsEntry("items", Map.of("type", "string", "enum", List.of("option1", "option2", "option3")));
      assertThat((Map<String, Object>) p.get("titledMulti").get("items")).containsKey("anyOf");
    }
  }
}
