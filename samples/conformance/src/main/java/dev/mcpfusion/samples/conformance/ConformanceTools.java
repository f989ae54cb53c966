package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Answers;
import dev.mcpfusion.core.Content;
import dev.mcpfusion.core.Elicitation;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.Question;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.Root;
import dev.mcpfusion.core.Sampling;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tools of the official MCP conformance suite ({@code @modelcontextprotocol/conformance},
 * {@code server --suite active}), with the names, arguments and texts its scenarios expect: router
 * {@code test}, so FLAT exposition names them {@code test_simple_text}, {@code test_image_content}, ….
 */
@Router(value = "test", description = "The conformance suite's tools")
public final class ConformanceTools {
  /** A 1×1 red PNG, base64 (the suite checks only that an image arrives). */
  static final String PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
  /** A minimal WAV file, base64. */
  static final String WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

  @Query(description = "Tests simple text content response")
  public String simpleText() {
    return "This is a simple text response for testing.";
  }

  @Query(description = "Tests image content response")
  public void imageContent(RequestContext request) {
    request.attach(Content.image(PNG, "image/png"));
  }

  @Query(description = "Tests audio content response")
  public void audioContent(RequestContext request) {
    request.attach(Content.audio(WAV, "audio/wav"));
  }

  @Query(description = "Tests embedded resource content response")
  public void embeddedResource(RequestContext request) {
    request.attach(Content.resource("test://embedded-resource", "text/plain",
        "This is an embedded resource content."));
  }

  @Query(description = "Tests response with multiple content types (text, image, resource)")
  public String multipleContentTypes(RequestContext request) {
    request.attach(Content.image(PNG, "image/png"),
        Content.resource("test://mixed-content-resource", "application/json",
            "{\"test\":\"data\",\"value\":123}"));
    return "Multiple content types test:";
  }

  @Query(description = "Tests tool that emits log messages during execution")
  public String toolWithLogging(RequestContext request) throws InterruptedException {
    request.log(LogLevel.INFO, "Tool execution started");
    Thread.sleep(50);
    request.log(LogLevel.INFO, "Tool processing data");
    Thread.sleep(50);
    request.log(LogLevel.INFO, "Tool execution completed");
    return "Tool with logging executed successfully";
  }

  @Query(description = "Tests tool that reports progress notifications")
  public String toolWithProgress(RequestContext request) throws InterruptedException {
    for (int step = 0; step <= 100; step += 50) {
      request.progress(step, 100, "Completed step " + step + " of 100");
      if (step < 100) {
        Thread.sleep(50);
      }
    }
    return String.valueOf(request.progressToken().orElse(0));
  }

  @Query(description = "Logs one message at info (2026-07-28: only when the request names a log level)")
  public String loggingTool(RequestContext request) {
    boolean sent = request.log(LogLevel.INFO, "Logging tool called");
    return sent ? "Logged one message" : "Logged nothing: the client wants no log messages at info";
  }

  @Query(description = "Needs the client's sampling capability (a client that did not declare it is refused)")
  public String missingCapability(RequestContext request) {
    return "Sampled: " + request.sample(Sampling.prompt("Say hello").maxTokens(10)).text();
  }

  @Query(description = "Tests error response handling")
  public String errorHandling() {
    throw FusionError.of("TEST_ERROR", "This tool intentionally returns an error for testing");
  }

  @Query(description = "Tests SSE stream disconnection and client reconnection (SEP-1699)")
  public String reconnection() throws InterruptedException {
    Thread.sleep(100);
    return "Reconnection test completed successfully. If you received this, the client properly "
        + "reconnected after stream closure.";
  }

  @Query(description = "Tests server-initiated sampling (LLM completion request)")
  public String sampling(@NotBlank @Describe("The prompt to send to the LLM") String prompt,
      RequestContext request) {
    Sampling.Result answer = request.sample(Sampling.prompt(prompt).maxTokens(100));
    return "LLM response: " + answer.text();
  }

  /** What {@code test_elicitation} asks the user. */
  public record UserInfo(
      @NotBlank @Describe("User's response") String username,
      @NotBlank @Describe("User's email address") String email) {}

  @Query(description = "Tests server-initiated elicitation (user input request)")
  public String elicitation(@NotBlank @Describe("The message to show the user") String message,
      RequestContext request) {
    Elicitation<UserInfo> answer = request.elicit(UserInfo.class, message);
    return "User response: action=" + answer.action().name().toLowerCase(java.util.Locale.ROOT)
        + ", content=" + answer.value().map(Forms::json).orElse("{}");
  }

  @Query(description = "Tests elicitation with default values per SEP-1034")
  public String elicitationSep1034Defaults(RequestContext request) {
    Elicitation<Forms.Profile> answer = request.elicitWithDefaults(
        new Forms.Profile("John Doe", 30, 95.5, Forms.UserStatus.active, true),
        "Please review and update the form fields with defaults");
    return "Elicitation completed: action=" + answer.action().name().toLowerCase(java.util.Locale.ROOT)
        + ", content=" + answer.value().map(Forms::json).orElse("{}");
  }

  @Query(description = "Tests elicitation with enum schema improvements per SEP-1330")
  public String elicitationSep1330Enums(RequestContext request) {
    Elicitation<Forms.Choices> answer = request.elicit(Forms.Choices.class,
        "Please select options from the enum fields");
    return "Elicitation completed: action=" + answer.action().name().toLowerCase(java.util.Locale.ROOT)
        + ", content=" + answer.value().map(Forms::json).orElse("{}");
  }

  // ---- input-required results (SEP-2322): the same handlers ask through a 2025 session too ------

  /** What the input-required scenarios ask a user's name with. */
  public record UserName(@NotBlank String name) {}

  /** What {@code test_input_required_result_request_state} asks the user to confirm. */
  public record Confirmation(boolean ok) {}

  /** The second step of {@code test_input_required_result_multi_round}. */
  public record FavoriteColor(@NotBlank String color) {}

  /** The name question of the input-required scenarios, under the key the suite expects. */
  static Question<Elicitation<UserName>> userName() {
    return Question.form(UserName.class, "What is your name?").key("user_name");
  }

  @Query(description = "Asks the user's name (SEP-2322 input-required result, or elicitation in a 2025 session)")
  public String inputRequiredResultElicitation(RequestContext request) {
    Elicitation<UserName> answer = request.ask(userName());
    return answer.value().map(n -> "Hello, " + n.name() + "!").orElse("Hello, stranger! ("
        + answer.action().name().toLowerCase(java.util.Locale.ROOT) + ")");
  }

  @Query(description = "Asks the client's model a question (SEP-2322 input-required result)")
  public String inputRequiredResultSampling(RequestContext request) {
    Sampling.Result answer = request.ask(Question.sampling(
        Sampling.prompt("What is the capital of France?").maxTokens(100)).key("capital_question"));
    return "The model said: " + answer.text();
  }

  @Query(description = "Asks the client for its roots (SEP-2322 input-required result)")
  public String inputRequiredResultListRoots(RequestContext request) {
    List<Root> roots = request.ask(Question.roots().key("client_roots"));
    return "Roots: " + roots.stream().map(Root::uri).collect(Collectors.joining(", "));
  }

  @Query(description = "Asks for a confirmation; the answer comes back with the signed request state")
  public String inputRequiredResultRequestState(RequestContext request) {
    Elicitation<Confirmation> answer = request.ask(
        Question.form(Confirmation.class, "Please confirm").key("confirm"));
    return "state-ok: confirmed=" + answer.value().map(Confirmation::ok).orElse(false);
  }

  @Query(description = "Asks a form, the client's model and its roots at once (one input-required result)")
  public String inputRequiredResultMultipleInputs(RequestContext request) {
    Question<Elicitation<UserName>> name = userName();
    Question<Sampling.Result> greeting = Question.sampling(
        Sampling.prompt("Generate a greeting").maxTokens(50)).key("greeting");
    Question<List<Root>> roots = Question.roots().key("client_roots");
    Answers answers = request.askAll(name, greeting, roots);
    return "name=" + answers.get(name).value().map(UserName::name).orElse("(none)")
        + ", greeting=" + answers.get(greeting).text()
        + ", roots=" + answers.get(roots).size();
  }

  @Query(description = "Asks two questions one after the other (two input-required rounds)")
  public String inputRequiredResultMultiRound(RequestContext request) {
    Elicitation<UserName> name = request.ask(
        Question.form(UserName.class, "Step 1: What is your name?").key("step1"));
    Elicitation<FavoriteColor> color = request.ask(
        Question.form(FavoriteColor.class, "Step 2: What is your favorite color?").key("step2"));
    return name.value().map(UserName::name).orElse("(none)") + " likes "
        + color.value().map(FavoriteColor::color).orElse("(none)");
  }

  @Query(description = "Asks for a confirmation; an edited request state is refused")
  public String inputRequiredResultTamperedState(RequestContext request) {
    Elicitation<Confirmation> answer = request.ask(
        Question.form(Confirmation.class, "Please confirm").key("confirm"));
    return "confirmed=" + answer.value().map(Confirmation::ok).orElse(false);
  }

  @Query(description = "Asks only what the client declared it can answer (sampling, elicitation, roots)")
  public String inputRequiredResultCapabilities(RequestContext request) {
    List<Question<?>> questions = new java.util.ArrayList<>();
    if (request.clientDeclared("sampling")) {
      questions.add(Question.sampling(Sampling.prompt("Say hello").maxTokens(10)).key("hello"));
    }
    if (request.clientDeclared("elicitation")) {
      questions.add(userName());
    }
    if (request.clientDeclared("roots")) {
      questions.add(Question.roots().key("client_roots"));
    }
    if (questions.isEmpty()) {
      return "The client declared nothing to ask.";
    }
    request.askAll(questions.toArray(Question<?>[]::new));
    return "Asked " + questions.size() + " question(s), each of a capability the client declared.";
  }

  @Query(description = "Elicits in the middle of a call: a 2026-07-28 request is answered with an"
      + " input-required result, never a request on its stream")
  public String streamingElicitation(RequestContext request) {
    request.progress(0, 1, "Asking the user");
    return inputRequiredResultElicitation(request);
  }
}
