package dev.mcpfusion.samples.conformance;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Root;
import dev.mcpfusion.samples.conformance.fixtures.TripTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.ToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A handler that asks the client (a form, the client's model, its roots) runs unchanged in both
 * protocol eras: a 2025-11-25 session sends the client requests; the 2026-07-28 era answers with
 * input-required results (SEP-2322) that the client answers by retrying with the request state.
 */
@SuppressWarnings("unchecked")
class InputRequiredTest {
  private static final String TOOL = "trip_book";

  private static FusionTester tester(TripTools trips, String version) {
    return FusionTester.of(FusionServer.builder("trips", "1.0.0").register(trips))
        .protocolVersion(version)
        .acceptElicitation(Map.of("city", "Lisbon"))
        .answerSampling("Sun and sea")
        .roots(new Root("file:///home/ada/trips", "Trips"));
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aHandlerThatElicitsSamplesAndAsksForRootsCompletesInBothEras(String version) {
    TripTools trips = new TripTools();
    try (FusionTester tester = tester(trips, version)) {
      ToolResult r = tester.callTool(TOOL, Map.of());
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("Booked Lisbon (Sun and sea) saved under file:///home/ada/trips");
      assertThat(tester.clientRequests()).extracting(FusionTester.ClientRequest::method)
          .containsExactly("elicitation/create", "sampling/createMessage", "roots/list");
      assertThat(trips.booked).hasValue(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void progressCarriedInTheStateIsNotRedoneWhenTheHandlerRunsAgain(String version) {
    TripTools trips = new TripTools();
    try (FusionTester tester = FusionTester.of(FusionServer.builder("trips", "1.0.0").register(trips))
        .protocolVersion(version).acceptElicitation(Map.of("email", "ada@example.com"))) {
      ToolResult r = tester.callTool("trip_charge_then_confirm", Map.of());
      assertThat(r.dataText()).isEqualTo("Charged ch_1, receipt to ada@example.com");
      assertThat(trips.charged).hasValue(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void askingAfterMarkChangedIsRefusedInBothEras(String version) {
    TripTools trips = new TripTools();
    try (FusionTester tester = tester(trips, version)) {
      ToolResult r = tester.callTool("trip_change_then_ask", Map.of());
      assertThat(r).isError().hasCode("INTERNAL_ERROR");
      assertThat(tester.clientRequests()).isEmpty();
      assertThat(trips.booked).hasValue(1);
    }
  }

  @Test
  void aHandlerThatAsksSomethingNewOnEveryRoundIsNeverAnsweredAndTheTesterGivesUp() {
    TripTools trips = new TripTools();
    try (FusionTester tester = tester(trips, FusionTester.MODERN)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> tester.callTool("trip_ask_something_new", Map.of()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("The server still asked for input after 16 rounds of tools/call");
      assertThat(trips.booked).hasValue(0);
    }
  }

  @Test
  void the2026EraAsksThroughInputRequiredResultsAndTheServerSendsNoRequest() {
    TripTools trips = new TripTools();
    try (FusionTester tester = tester(trips, FusionTester.MODERN)) {
      McpResponse first = tester.request("tools/call", Map.of("name", TOOL, "arguments", Map.of()));
      assertThat(first.result()).containsEntry("resultType", "input_required");
      assertThat(first.result().get("requestState")).isInstanceOf(String.class);
      assertThat((Map<String, Object>) first.result().get("inputRequests")).containsOnlyKeys("elicitation_1");
      // No JSON-RPC request ever went to the client: every question was inside a result.
      assertThat(tester.rawMessages()).noneMatch(InputRequiredTest::isARequestToTheClient);
      ToolResult done = tester.callTool(TOOL, Map.of());
      assertThat(done).isSuccess();
      // Three questions asked one after the other: the handler ran once per round, and booked once.
      assertThat(trips.runs).hasValue(1 + 4);
      assertThat(trips.booked).hasValue(1);
    }
  }

  @Test
  void a2026QuestionLeavesThroughTheEgressChain() {
    List<String> seen = new java.util.ArrayList<>();
    try (FusionTester tester = tester(new TripTools(), FusionTester.MODERN).egressFilter((out, ctx) -> {
      seen.add(out.channel() + " " + out.method());
      return out.method().equals("elicitation/create")
          ? out.rewrite(Map.of("message", "Where to? (rewritten)", "requestedSchema", out.tree().get("requestedSchema")))
          : out;
    })) {
      Map<String, Object> first = tester.request("tools/call", Map.of("name", TOOL, "arguments", Map.of())).result();
      Map<String, Object> question = (Map<String, Object>) ((Map<String, Object>) first.get("inputRequests"))
          .get("elicitation_1");
      assertThat((Map<String, Object>) question.get("params")).containsEntry("message", "Where to? (rewritten)");
      assertThat(tester.callTool(TOOL, Map.of())).isSuccess();
      assertThat(seen).contains("ELICITATION elicitation/create", "SAMPLING sampling/createMessage",
          "ROOTS roots/list");
    }
  }

  @Test
  void anEditedRequestStateIsAClearError() {
    try (FusionTester tester = tester(new TripTools(), FusionTester.MODERN)) {
      Map<String, Object> first = tester.request("tools/call", Map.of("name", TOOL, "arguments", Map.of())).result();
      String state = (String) first.get("requestState");
      String edited = state.substring(0, 10) + (state.charAt(10) == 'A' ? 'B' : 'A') + state.substring(11);
      McpResponse r = tester.request("tools/call", retry(Map.of(), edited, Map.of("elicitation_1",
          Map.of("action", "accept", "content", Map.of("city", "Oslo")))));
      assertThat(r.errorCode()).isEqualTo(-32602);
      assertThat(r.errorMessage()).isEqualTo("Invalid params: requestState was changed or was not issued by"
          + " this server (its signature does not match). Send the request again without requestState"
          + " and inputResponses to start over.");
    }
  }

  @Test
  void aRequestStateReplayedOnAnotherCallIsAClearError() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder())
        .protocolVersion(FusionTester.MODERN).acceptElicitation(Map.of("name", "Ada"))) {
      Map<String, Object> first = tester.request("tools/call", Map.of("name",
          "test_input_required_result_elicitation", "arguments", Map.of())).result();
      String state = (String) first.get("requestState");
      Map<String, Object> answers = Map.of("confirm", Map.of("action", "accept", "content", Map.of("ok", true)));
      Map<String, Object> replay = retry(Map.of(), state, answers);
      replay.put("name", "test_input_required_result_tampered_state");
      McpResponse r = tester.request("tools/call", replay);
      assertThat(r.errorCode()).isEqualTo(-32602);
      assertThat(r.errorMessage()).startsWith("Invalid params: requestState belongs to another request (a"
          + " different tool, prompt or resource, or different arguments)").endsWith("to start over.");
    }
  }

  @Test
  void theSameStateSentTwiceWithinItsLifetimeIsAnOrdinaryRetry() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder())
        .protocolVersion(FusionTester.MODERN).acceptElicitation(Map.of("name", "Ada"))) {
      String state = (String) tester.request("tools/call", Map.of("name",
          "test_input_required_result_elicitation", "arguments", Map.of())).result().get("requestState");
      assertThat(tester.request("tools/call", elicitationRetry(state)).texts()).containsExactly("Hello, Ada!");
      assertThat(tester.request("tools/call", elicitationRetry(state)).texts()).containsExactly("Hello, Ada!");
    }
  }

  @Test
  void aRequestStateReplayedAfterItExpiredIsAClearError() throws InterruptedException {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()
        .requestStateTtl(java.time.Duration.ofSeconds(1))).protocolVersion(FusionTester.MODERN)
        .acceptElicitation(Map.of("name", "Ada"))) {
      String state = (String) tester.request("tools/call", Map.of("name",
          "test_input_required_result_elicitation", "arguments", Map.of())).result().get("requestState");
      Thread.sleep(2_100);
      McpResponse r = tester.request("tools/call", elicitationRetry(state));
      assertThat(r.errorCode()).isEqualTo(-32602);
      assertThat(r.errorMessage()).startsWith("Invalid params: requestState expired at ")
          .endsWith("Send the request again without requestState and inputResponses to start over.");
    }
  }

  @Test
  void anOversizedRequestStateIsAClearError() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()
        .maxRequestStateBytes(2048)).protocolVersion(FusionTester.MODERN)) {
      McpResponse r = tester.request("tools/call", elicitationRetry("x".repeat(5000)));
      assertThat(r.errorCode()).isEqualTo(-32602);
      assertThat(r.errorMessage()).isEqualTo("Invalid params: requestState is 5000 bytes, more than the 2048"
          + " bytes this server issues, so it did not come from this server. Send the request again"
          + " without requestState and inputResponses to start over.");
    }
  }

  @Test
  void answersThatWouldNeedAnOversizedStateAreAClearError() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()
        .maxRequestStateBytes(2048)).protocolVersion(FusionTester.MODERN)
        .acceptElicitation(Map.of("name", "A".repeat(3000)))) {
      ToolResult r = tester.callTool("test_input_required_result_multi_round", Map.of());
      assertThat(r.jsonRpcError()).isNotNull();
      assertThat(r.jsonRpcError().code()).isEqualTo(-32602);
      assertThat(r.jsonRpcError().message()).startsWith("Invalid params: the answers gathered so far need ")
          .contains("more than the 2048 bytes this server carries");
    }
  }

  @Test
  void aStateSignedWithTheFleetsKeyIsCompletedByAnotherInstance() {
    byte[] key = "0123456789abcdef0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    Function<byte[], FusionTester> instance = k -> FusionTester.of(ConformanceConnector.builder()
        .requestStateKey(k)).protocolVersion(FusionTester.MODERN).acceptElicitation(Map.of("name", "Ada"));
    String state;
    try (FusionTester one = instance.apply(key)) {
      state = (String) one.request("tools/call", Map.of("name", "test_input_required_result_elicitation",
          "arguments", Map.of())).result().get("requestState");
    }
    try (FusionTester two = instance.apply(key)) {
      McpResponse r = two.request("tools/call", elicitationRetry(state));
      assertThat(r.isError()).isFalse();
      assertThat(r.texts()).containsExactly("Hello, Ada!");
    }
    try (FusionTester other = FusionTester.of(ConformanceConnector.builder())
        .protocolVersion(FusionTester.MODERN).acceptElicitation(Map.of("name", "Ada"))) {
      assertThat(other.request("tools/call", elicitationRetry(state)).errorMessage())
          .contains("was not issued by this server");
    }
  }

  @Test
  void malformedInputResponsesAreAClearError() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(FusionTester.MODERN)) {
      Map<String, Object> notAnObject = new LinkedHashMap<>(Map.of("name",
          "test_input_required_result_elicitation", "arguments", Map.of()));
      notAnObject.put("inputResponses", Map.of("user_name", 12345));
      McpResponse r = tester.request("tools/call", notAnObject);
      assertThat(r.errorCode()).isEqualTo(-32602);
      assertThat(r.errorMessage()).isEqualTo("Invalid params: inputResponses.\"user_name\" must be an object"
          + " (the client's result for that input request), but was a number.");
      Map<String, Object> nulled = new LinkedHashMap<>(Map.of("name",
          "test_input_required_result_elicitation", "arguments", Map.of()));
      nulled.put("inputResponses", null);
      assertThat(tester.request("tools/call", nulled).errorMessage())
          .startsWith("Invalid params: inputResponses must be an object").contains("but was null");
    }
  }

  @Test
  void aMissingAnswerIsAskedAgainAndUnknownKeysAreIgnored() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(FusionTester.MODERN)
        .acceptElicitation(Map.of("name", "Ada"))) {
      Map<String, Object> wrongKey = new LinkedHashMap<>(Map.of("name",
          "test_input_required_result_elicitation", "arguments", Map.of()));
      wrongKey.put("inputResponses", Map.of("wrong_key", Map.of("action", "accept", "content", Map.of("data", "x"))));
      Map<String, Object> again = tester.request("tools/call", wrongKey).result();
      assertThat(again).containsEntry("resultType", "input_required");
      assertThat((Map<String, Object>) again.get("inputRequests")).containsOnlyKeys("user_name");
      Map<String, Object> extra = new LinkedHashMap<>(wrongKey);
      extra.put("inputResponses", Map.of("user_name", Map.of("action", "accept", "content", Map.of("name", "Ada")),
          "unknown_extra_key", Map.of("action", "accept")));
      assertThat(tester.request("tools/call", extra).texts()).containsExactly("Hello, Ada!");
    }
  }

  @Test
  void anAnswerToAQuestionTheHandlerNoLongerAsksIsNotUsed() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(FusionTester.MODERN)
        .acceptElicitation(Map.of("name", "Ada"))) {
      String state = (String) tester.request("tools/call", Map.of("name",
          "test_input_required_result_multi_round", "arguments", Map.of())).result().get("requestState");
      // step2 was not asked yet: an answer to it is not taken, step1 is asked again.
      Map<String, Object> early = retry(Map.of(), state, Map.of("step2",
          Map.of("action", "accept", "content", Map.of("color", "blue"))));
      early.put("name", "test_input_required_result_multi_round");
      Map<String, Object> result = tester.request("tools/call", early).result();
      assertThat(result).containsEntry("resultType", "input_required");
      assertThat((Map<String, Object>) result.get("inputRequests")).containsOnlyKeys("step1");
    }
  }

  @Test
  void manyQuestionsAtOnceAreOneInputRequiredResult() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(FusionTester.MODERN)
        .acceptElicitation(Map.of("name", "Ada")).answerSampling("Hi").roots(new Root("file:///w", null))) {
      Map<String, Object> first = tester.request("tools/call", Map.of("name",
          "test_input_required_result_multiple_inputs", "arguments", Map.of())).result();
      assertThat((Map<String, Object>) first.get("inputRequests"))
          .containsOnlyKeys("user_name", "greeting", "client_roots");
      assertThat(tester.callTool("test_input_required_result_multiple_inputs", Map.of()).dataText())
          .isEqualTo("name=Ada, greeting=Hi, roots=1");
    }
  }

  @Test
  void askAllInA2025SessionSendsTheQuestionsOneAfterTheOther() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder())
        .acceptElicitation(Map.of("name", "Ada")).answerSampling("Hi").roots(new Root("file:///w", null))) {
      assertThat(tester.callTool("test_input_required_result_multiple_inputs", Map.of()).dataText())
          .isEqualTo("name=Ada, greeting=Hi, roots=1");
      assertThat(tester.clientRequests()).extracting(FusionTester.ClientRequest::method)
          .containsExactly("elicitation/create", "sampling/createMessage", "roots/list");
    }
  }

  @Test
  void rootsWithoutTheClientCapabilityIsAClearErrorInThe2025Era() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder())) {
      ToolResult r = tester.callTool("test_input_required_result_list_roots", Map.of());
      assertThat(r).isError().hasCode("CLIENT_UNAVAILABLE");
      assertThat(r.errorText()).contains("did not declare the 'roots' capability");
      assertThat(tester.clientRequests()).isEmpty();
    }
  }

  @Test
  void aPromptAsksThroughAnInputRequiredResultToo() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(FusionTester.MODERN)
        .acceptElicitation(Map.of("context", "billing"))) {
      assertThat(tester.getPrompt("test_input_required_result_prompt", Map.of()).raw())
          .contains("Use this context: billing");
      assertThat(tester.clientRequests()).extracting(FusionTester.ClientRequest::method)
          .containsExactly("elicitation/create");
    }
  }

  @Test
  void onlyTheDeclaredCapabilitiesAreAsked() {
    try (FusionTester tester = FusionTester.of(ConformanceConnector.builder()).protocolVersion(FusionTester.MODERN)
        .answerSampling("hello")) {
      assertThat(tester.callTool("test_input_required_result_capabilities", Map.of()).dataText())
          .isEqualTo("Asked 1 question(s), each of a capability the client declared.");
      assertThat(tester.clientRequests()).extracting(FusionTester.ClientRequest::method)
          .containsExactly("sampling/createMessage");
    }
  }

  /** A JSON-RPC request (method and id, no result): what a 2025 session sends to ask the client. */
  private static boolean isARequestToTheClient(String message) {
    return message.contains("\"method\":") && message.contains("\"id\":")
        && !message.contains("\"result\":") && !message.contains("\"error\":");
  }

  private static Map<String, Object> elicitationRetry(String state) {
    Map<String, Object> params = retry(Map.of(), state, Map.of("user_name",
        Map.of("action", "accept", "content", Map.of("name", "Ada"))));
    params.put("name", "test_input_required_result_elicitation");
    return params;
  }

  private static Map<String, Object> retry(Map<String, Object> arguments, String state,
      Map<String, Object> answers) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", TOOL);
    params.put("arguments", arguments);
    params.put("inputResponses", answers);
    params.put("requestState", state);
    return params;
  }
}
