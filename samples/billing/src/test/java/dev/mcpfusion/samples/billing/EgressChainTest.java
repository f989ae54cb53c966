package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.samples.billing.fixtures.Leaky;
import dev.mcpfusion.testing.CompletionResponse;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.PromptResponse;
import dev.mcpfusion.testing.ResourceResponse;
import dev.mcpfusion.testing.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * One way out: every channel a server writes passes the egress chain — redaction of what no view
 * shaped (the server-wide detectors, with the view's), the view's own {@code @Redact} where a view
 * shaped it, the egress filters (pass, rewrite, veto, throw) and the byte cap. Each test is one
 * cell of the channel table in docs/guide/egress.md ("One way out").
 */
class EgressChainTest {
  static final String CARD = "4111 1111 1111 1111";
  static final String IBAN = "GB82 WEST 1234 5698 7654 32";
  static final String STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc";

  final AtomicReference<String> secret = new AtomicReference<>(CARD);
  final List<Outbound> seen = Collections.synchronizedList(new ArrayList<>());

  FusionServer.Builder builder() {
    return FusionServer.builder("leak", "1")
        .register(new Leaky.LeakTools(secret::get))
        .redact(Redaction.detecting(Detector.CARD, Detector.API_KEY));
  }

  FusionTester tester() {
    return FusionTester.of(builder()).answerSampling("fine").acceptElicitation(Map.of("proceed", true));
  }

  /** A tester whose server runs {@code filter} on every message, after a recording filter. */
  FusionTester filtered(dev.mcpfusion.core.EgressFilter filter) {
    return FusionTester.of(builder()
            .egressFilter((out, request) -> {
              seen.add(out);
              return out;
            })
            .egressFilter(filter))
        .answerSampling("fine").acceptElicitation(Map.of("proceed", true))
        .roots(new dev.mcpfusion.core.Root("file:///ledger", "Ledger"));
  }

  static Map<String, Object> progressToken() {
    return Map.of("progressToken", "p-1");
  }

  static void noSecretIn(FusionTester tester, String... secrets) {
    for (String raw : tester.rawMessages()) {
      for (String s : secrets) {
        assertThat(raw).doesNotContain(s).doesNotContain(s.replace(" ", ""));
      }
      assertThat(raw).doesNotContain("HIDDEN-SENTINEL");
    }
  }

  // ---- redaction, channel by channel -----------------------------------------------------------

  @Test
  void toolAttachmentsAreRedacted() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.call("leak", "attach");
      assertThat(r.isSuccess()).isTrue();
      assertThat(r.raw()).contains("attached [REDACTED]", "embedded [REDACTED]",
          "ledger://notes/[REDACTED]", "note [REDACTED]", "link [REDACTED]");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void errorEnvelopesAreRedacted() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.call("leak", "fail");
      assertThat(r.isError()).isTrue();
      assertThat(r.errorText()).contains("No note [REDACTED].", "Ask for [REDACTED].");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void promptTextIsRedacted() {
    try (FusionTester tester = tester()) {
      PromptResponse p = tester.getPrompt("plain", Map.of());
      assertThat(p.texts()).containsExactly("prompt [REDACTED]");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void promptDataFollowsTheViewsRedactAndTheTextBesideItTheServersDetectors() {
    secret.set(IBAN);
    try (FusionTester tester = tester()) {
      PromptResponse p = tester.getPrompt("shaped", Map.of());
      String all = String.join("\n", p.texts());
      // The view's @Redact: its IBAN detector in the data, its path on remark (masked whole).
      assertThat(all).contains("\"text\":\"text [REDACTED]\"", "\"remark\":\"[REDACTED]\"");
      // The handler's own text: the server-wide detectors and the view's together.
      assertThat(all).contains("about [REDACTED]");
      noSecretIn(tester, IBAN);
    }
    secret.set(STRIPE);
    try (FusionTester tester = tester()) {
      // The view's @Redact replaced the server default in its data (no API_KEY detector there),
      // but remark is masked by path, and the text beside it by the server's detectors.
      String all = String.join("\n", tester.getPrompt("shaped", Map.of()).texts());
      assertThat(all).contains("\"text\":\"text " + STRIPE + "\"", "\"remark\":\"[REDACTED]\"",
          "about [REDACTED]");
    }
  }

  @Test
  void resourceTextIsRedacted() {
    try (FusionTester tester = tester()) {
      ResourceResponse r = tester.readResource("ledger://plain");
      assertThat(r.text()).isEqualTo("resource [REDACTED]");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void resourceDataFollowsTheViewsRedact() {
    secret.set(IBAN);
    try (FusionTester tester = tester()) {
      ResourceResponse r = tester.readResource("ledger://note");
      assertThat(r.text()).isEqualTo(
          "{\"id\":\"N-1\",\"text\":\"text [REDACTED]\",\"remark\":\"[REDACTED]\"}");
      noSecretIn(tester, IBAN);
    }
  }

  @Test
  void completionValuesAreRedacted() {
    try (FusionTester tester = tester()) {
      CompletionResponse c = tester.completeResource("ledger://notes/{id}", "id", "");
      assertThat(c.values()).containsExactly("N-1", "[REDACTED]");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void progressAndLogMessagesAreRedacted() {
    try (FusionTester tester = tester()) {
      tester.setLogLevel(LogLevel.INFO);
      assertThat(tester.callTool("leak_talk", Map.of(), progressToken()).isSuccess()).isTrue();
      assertThat(tester.progress()).extracting(FusionTester.Progress::message)
          .contains("progress [REDACTED]");
      assertThat(tester.logs()).extracting(FusionTester.LogMessage::data).contains("log [REDACTED]");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void samplingAndElicitationRequestsAreRedacted() {
    try (FusionTester tester = tester()) {
      assertThat(tester.call("leak", "ask").isSuccess()).isTrue();
      assertThat(tester.call("leak", "confirm").isSuccess()).isTrue();
      assertThat(tester.clientRequests()).hasSize(2);
      assertThat(tester.clientRequests().get(0).params().toString())
          .contains("summarise [REDACTED]", "system [REDACTED]");
      assertThat(tester.clientRequests().get(1).params()).containsEntry("message", "confirm [REDACTED]");
      noSecretIn(tester, CARD);
    }
  }

  @Test
  void resourceUpdatesAreRedacted() {
    try (FusionTester tester = tester()) {
      assertThat(tester.subscribe("ledger://notes/" + CARD).isError()).isFalse();
      assertThat(tester.call("leak", "touch").isSuccess()).isTrue();
      assertThat(tester.resourceUpdates()).containsExactly("ledger://notes/[REDACTED]");
      for (String raw : tester.rawMessages()) {
        if (raw.contains("notifications/resources/updated")) {
          assertThat(raw).doesNotContain(CARD);
        }
      }
    }
  }

  @Test
  void promptErrorsAreRedacted() {
    try (FusionTester tester = tester()) {
      PromptResponse p = tester.getPrompt("failing", Map.of());
      assertThat(p.isError()).isTrue();
      assertThat(p.errorMessage()).contains("No prompt for [REDACTED].");
      noSecretIn(tester, CARD);
    }
  }

  // ---- the byte cap ------------------------------------------------------------------------------

  @Test
  void attachmentsCountTowardsTheByteCap() {
    try (FusionTester tester = tester()) {
      ToolResult bulky = tester.call("leak", "bulky");
      assertThat(bulky.isError()).isTrue();
      assertThat(bulky.errorCode()).isEqualTo("PAYLOAD_TOO_LARGE");
      assertThat(bulky.raw()).doesNotContain("xxxxxxxxxx");
      ToolResult small = tester.call("leak", "small");
      assertThat(small.isSuccess()).isTrue();
      assertThat(small.raw()).contains("y".repeat(100));
    }
  }

  @Test
  void talkBackOverTheByteCapIsNotSent() {
    try (FusionTester tester = tester()) {
      tester.setLogLevel(LogLevel.INFO);
      assertThat(tester.callTool("leak_talk", Map.of(), progressToken()).isSuccess()).isTrue();
      assertThat(tester.progress()).hasSize(1);
      assertThat(tester.logs()).hasSize(1);
      assertThat(String.join("", tester.rawMessages())).doesNotContain("z".repeat(1000));
    }
  }

  @Test
  void aSamplingRequestOverTheByteCapFailsInTheHandler() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.call("leak", "ask_long");
      assertThat(r.isError()).isTrue();
      assertThat(r.errorCode()).isEqualTo("PAYLOAD_TOO_LARGE");
      assertThat(tester.clientRequests()).isEmpty();
    }
  }

  @Test
  void aPromptAResourceAndACompletionOverTheirByteCapAnswerAClearError() {
    try (FusionTester tester = tester()) {
      PromptResponse p = tester.getPrompt("long_prompt", Map.of());
      assertThat(p.isError()).isTrue();
      assertThat(p.errorCode()).isEqualTo(-32603);
      assertThat(p.errorMessage()).contains("PAYLOAD_TOO_LARGE", "larger than 1024 bytes");
      assertThat(p.raw()).doesNotContain("pppppppppp");
      ResourceResponse r = tester.readResource("ledger://long");
      assertThat(r.errorMessage()).contains("PAYLOAD_TOO_LARGE", "larger than 1024 bytes");
      assertThat(r.raw()).doesNotContain("rrrrrrrrrr");
      CompletionResponse c = tester.completeResource("ledger://pages/{page}", "page", "");
      assertThat(c.errorMessage()).contains("PAYLOAD_TOO_LARGE", "larger than 1024 bytes");
      assertThat(c.raw()).doesNotContain("99999999999999999999");
      // Under the cap, the same channels answer.
      assertThat(tester.readResource("ledger://pages/7").text()).isEqualTo("page 7");
    }
  }

  @Test
  void aFeaturesDeadlineCoversPresentingItsAnswerNotOnlyItsHandler() {
    try (FusionTester tester = tester()) {
      // The handler returns a stream at once; presenting its 20 items takes 2 s.
      ResourceResponse r = tester.readResource("ledger://slow-notes");
      assertThat(r.isError()).isTrue();
      assertThat(r.errorCode()).isEqualTo(-32004);
      assertThat(r.errorMessage()).contains("TIMEOUT", "300 ms");
    }
  }

  // ---- egress filters ----------------------------------------------------------------------------

  @Test
  void aFilterSeesEveryChannelWithItsRequest() {
    secret.set("nothing secret");
    try (FusionTester tester = filtered((out, request) -> out).header("x-caller", "ada")) {
      tester.setLogLevel(LogLevel.INFO);
      tester.call("leak", "note");
      tester.call("leak", "fail");
      tester.callTool("leak_talk", Map.of(), progressToken());
      tester.call("leak", "ask");
      tester.call("leak", "confirm");
      tester.call("leak", "roots");
      tester.getPrompt("plain", Map.of());
      tester.readResource("ledger://plain");
      tester.completeResource("ledger://notes/{id}", "id", "");
      tester.subscribe("ledger://notes/N-1");
      tester.call("leak", "touch");
      assertThat(seen).extracting(Outbound::channel).contains(Outbound.Channel.values());
      assertThat(seen).filteredOn(o -> o.channel() == Outbound.Channel.TOOL_RESULT)
          .extracting(Outbound::target).contains("leak_note", "leak_fail");
      Outbound error = seen.stream().filter(o -> "leak_fail".equals(o.target())).findFirst().get();
      assertThat(error.tree()).containsEntry("isError", true);
      Outbound prompt = seen.stream().filter(o -> o.channel() == Outbound.Channel.PROMPT).findFirst()
          .get();
      assertThat(prompt.method()).isEqualTo("prompts/get");
      assertThat(prompt.target()).isEqualTo("plain");
      assertThat(prompt.tree().toString()).contains("prompt nothing secret");
    }
  }

  @Test
  void aFilterSeesTheCallersRequest() {
    AtomicReference<RequestContext> saw = new AtomicReference<>();
    try (FusionTester tester = filtered((out, request) -> {
      saw.set(request);
      return out;
    }).header("x-caller", "ada")) {
      tester.call("leak", "note");
      assertThat(saw.get().header("x-caller")).contains("ada");
    }
  }

  @Test
  void aFilterSeesWhatRedactionLeft() {
    secret.set(IBAN);
    try (FusionTester tester = filtered((out, request) -> out)) {
      tester.call("leak", "note");
      assertThat(seen.get(0).tree().toString()).doesNotContain(IBAN).contains("text [REDACTED]");
    }
  }

  @Test
  void aViewsRedactReplacesTheServerDefaultInItsOwnData() {
    // NoteView's @Redact finds IBANs and masks remark: a card in its data is the view's to show.
    try (FusionTester tester = tester()) {
      ToolResult r = tester.call("leak", "note");
      assertThat(r.dataText()).isEqualTo(
          "{\"id\":\"N-1\",\"text\":\"text " + CARD + "\",\"remark\":\"[REDACTED]\"}");
    }
  }

  static Map<String, Object> rewrittenResult() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("content", List.of(Map.of("type", "text", "text", "rewritten by policy")));
    result.put("isError", false);
    return result;
  }

  @Test
  void toolResultPassRewriteVetoThrow() {
    try (FusionTester tester = filtered((out, request) -> out)) {
      assertThat(tester.call("leak", "note").isSuccess()).isTrue();
    }
    try (FusionTester tester = filtered((out, request) -> out.rewrite(rewrittenResult()))) {
      ToolResult r = tester.call("leak", "attach");
      assertThat(r.isSuccess()).isTrue();
      assertThat(r.blocks()).containsExactly("rewritten by policy");
      assertThat(r.raw()).doesNotContain("attached");
    }
    try (FusionTester tester = filtered((out, request) -> out.veto("POLICY", "Not for this caller."))) {
      ToolResult r = tester.call("leak", "note");
      assertThat(r.isError()).isTrue();
      assertThat(r.errorCode()).isEqualTo("POLICY");
      assertThat(r.errorText()).containsPattern("Not for this caller\\. \\(incident [0-9a-f]{12}\\)")
          .doesNotContain("N-1");
    }
    try (FusionTester tester = filtered((out, request) -> {
      throw new IllegalStateException("policy engine down: " + out.tree());
    })) {
      ToolResult r = tester.call("leak", "note");
      assertThat(r.isError()).isTrue();
      assertThat(r.errorCode()).isEqualTo("INTERNAL_ERROR");
      assertThat(r.raw()).doesNotContain("policy engine", "N-1", "IllegalStateException");
    }
  }

  @Test
  void aRewriteOverTheByteCapIsRefused() {
    Map<String, Object> big = new LinkedHashMap<>();
    big.put("content", List.of(Map.of("type", "text", "text", "q".repeat(5000))));
    big.put("isError", false);
    try (FusionTester tester = filtered((out, request) -> out.rewrite(big))) {
      ToolResult r = tester.call("leak", "small");
      assertThat(r.errorCode()).isEqualTo("PAYLOAD_TOO_LARGE");
      assertThat(r.raw()).doesNotContain("qqqqqqqqqq");
    }
  }

  @Test
  void aRewriteThatIsNotAToolResultFailsClosed() {
    try (FusionTester tester = filtered((out, request) -> out.rewrite(Map.of("text", "loose")))) {
      ToolResult r = tester.call("leak", "note");
      assertThat(r.errorCode()).isEqualTo("INTERNAL_ERROR");
      assertThat(r.raw()).doesNotContain("loose");
    }
  }

  @Test
  void promptPassRewriteVetoThrow() {
    try (FusionTester tester = filtered((out, request) -> out)) {
      assertThat(tester.getPrompt("plain", Map.of()).texts()).containsExactly("prompt [REDACTED]");
    }
    Map<String, Object> other = Map.of("messages", List.of(Map.of("role", "user",
        "content", Map.of("type", "text", "text", "a safer prompt"))));
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.PROMPT ? out.rewrite(other) : out)) {
      assertThat(tester.getPrompt("plain", Map.of()).texts()).containsExactly("a safer prompt");
    }
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.PROMPT ? out.veto("POLICY", "Not for this caller.") : out)) {
      PromptResponse p = tester.getPrompt("plain", Map.of());
      assertThat(p.isError()).isTrue();
      assertThat(p.errorMessage()).contains("code=\"POLICY\"", "Not for this caller. (incident ")
          .doesNotContain("prompt");
      assertThat(p.raw()).doesNotContain("[REDACTED]");
    }
    try (FusionTester tester = filtered((out, request) -> {
      if (out.channel() == Outbound.Channel.PROMPT) {
        throw new IllegalStateException("judge offline");
      }
      return out;
    })) {
      PromptResponse p = tester.getPrompt("plain", Map.of());
      assertThat(p.errorCode()).isEqualTo(-32603);
      assertThat(p.errorMessage()).contains("INTERNAL_ERROR", "incident").doesNotContain("judge");
      assertThat(p.raw()).doesNotContain("[REDACTED]");
    }
  }

  @Test
  void resourcePassRewriteVetoThrow() {
    try (FusionTester tester = filtered((out, request) -> out)) {
      assertThat(tester.readResource("ledger://plain").text()).isEqualTo("resource [REDACTED]");
    }
    Map<String, Object> other = Map.of("contents", List.of(Map.of("uri", "ledger://plain",
        "mimeType", "text/plain", "text", "nothing to see")));
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.RESOURCE ? out.rewrite(other) : out)) {
      assertThat(tester.readResource("ledger://plain").text()).isEqualTo("nothing to see");
    }
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.RESOURCE ? out.veto("POLICY", "Not yours.") : out)) {
      ResourceResponse r = tester.readResource("ledger://plain");
      assertThat(r.isError()).isTrue();
      assertThat(r.errorMessage()).contains("Not yours. (incident ");
      assertThat(r.raw()).doesNotContain("resource [");
    }
    try (FusionTester tester = filtered((out, request) -> {
      if (out.channel() == Outbound.Channel.RESOURCE) {
        throw new IllegalStateException("judge offline");
      }
      return out;
    })) {
      ResourceResponse r = tester.readResource("ledger://plain");
      assertThat(r.errorCode()).isEqualTo(-32603);
      assertThat(r.raw()).doesNotContain("resource [", "judge");
    }
  }

  @Test
  void progressPassRewriteVetoThrow() {
    try (FusionTester tester = filtered((out, request) -> out)) {
      tester.callTool("leak_talk", Map.of(), progressToken());
      assertThat(tester.progress()).extracting(FusionTester.Progress::message)
          .containsExactly("progress [REDACTED]");
    }
    try (FusionTester tester = filtered((out, request) -> {
      if (out.channel() != Outbound.Channel.PROGRESS) {
        return out;
      }
      Map<String, Object> params = new LinkedHashMap<>(out.tree());
      params.put("message", "working");
      return out.rewrite(params);
    })) {
      tester.callTool("leak_talk", Map.of(), progressToken());
      // The rewrite is what the cap measures: the long second message, shortened, now fits.
      assertThat(tester.progress()).extracting(FusionTester.Progress::message)
          .containsExactly("working", "working");
      assertThat(tester.progress()).extracting(FusionTester.Progress::token)
          .containsExactly("p-1", "p-1");
    }
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.PROGRESS ? out.veto("POLICY", "No progress.") : out)) {
      assertThat(tester.callTool("leak_talk", Map.of(), progressToken()).isSuccess()).isTrue();
      assertThat(tester.progress()).isEmpty();
    }
    try (FusionTester tester = filtered((out, request) -> {
      if (out.channel() == Outbound.Channel.PROGRESS) {
        throw new IllegalStateException("judge offline");
      }
      return out;
    })) {
      assertThat(tester.callTool("leak_talk", Map.of(), progressToken()).isSuccess()).isTrue();
      assertThat(tester.progress()).isEmpty();
    }
  }

  @Test
  void aVetoedSamplingRequestFailsInTheHandlerAndNeverReachesTheClient() {
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.SAMPLING ? out.veto("POLICY", "No sampling here.") : out)) {
      ToolResult r = tester.call("leak", "ask");
      assertThat(r.errorCode()).isEqualTo("POLICY");
      assertThat(r.errorText()).contains("No sampling here. (incident ");
      assertThat(tester.clientRequests()).isEmpty();
    }
  }

  @Test
  void aVetoedResourceUpdateIsNotSent() {
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.RESOURCE_UPDATED ? out.veto("POLICY", "Quiet.") : out)) {
      tester.subscribe("ledger://notes/N-1");
      assertThat(tester.call("leak", "touch").isSuccess()).isTrue();
      assertThat(tester.resourceUpdates()).isEmpty();
    }
  }

  @Test
  void vetoCodesAndMessagesAreChecked() {
    Outbound out = Outbound.of(Outbound.Channel.LOG, "notifications/message", null, Map.of());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> out.veto("policy", "x"))
        .hasMessageContaining("upper case");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> out.veto("POLICY", " "))
        .hasMessageContaining("message");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> out.rewrite(Map.of("x", new Object())))
        .hasMessageContaining("Not a plain JSON value");
  }

  @Test
  void aCompletionVetoAnswersAnError() {
    try (FusionTester tester = filtered((out, request) ->
        out.channel() == Outbound.Channel.COMPLETION ? out.veto("POLICY", "No hints.") : out)) {
      McpResponse c = tester.completeResource("ledger://notes/{id}", "id", "");
      assertThat(c.isError()).isTrue();
      assertThat(c.raw()).doesNotContain("N-1");
    }
  }
}
