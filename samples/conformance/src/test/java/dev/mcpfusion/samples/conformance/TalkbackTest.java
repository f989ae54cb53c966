package dev.mcpfusion.samples.conformance;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.LogLevel;
import dev.mcpfusion.samples.conformance.fixtures.SlowTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.PendingCall;
import dev.mcpfusion.testing.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A handler that talks back — progress, logging, cancellation — through the real server, in memory. */
class TalkbackTest {

  private static FusionTester tester() {
    return FusionTester.of(ConformanceConnector.builder());
  }

  @Test
  void progressWithoutATokenSendsNothing() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.callTool("test_tool_with_progress", Map.of());
      assertThat(r).isSuccess();
      assertThat(tester.progress()).isEmpty();
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("notifications/progress"));
    }
  }

  @Test
  void progressWithATokenIsReportedInOrderUnderThatToken() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.callTool("test_tool_with_progress", Map.of(), Map.of("progressToken", "p-7"));
      assertThat(r).isSuccess();
      assertThat(r.dataText()).isEqualTo("p-7");
      assertThat(tester.progress()).extracting(FusionTester.Progress::token).containsOnly("p-7");
      assertThat(tester.progress()).extracting(p -> p.progress().intValue()).containsExactly(0, 50, 100);
      assertThat(tester.progress()).extracting(p -> p.total().intValue()).containsOnly(100);
      assertThat(tester.progress().get(1).message()).isEqualTo("Completed step 50 of 100");
    }
  }

  @Test
  void progressNotificationsArriveBeforeTheResult() {
    try (FusionTester tester = tester()) {
      tester.callTool("test_tool_with_progress", Map.of(), Map.of("progressToken", 3));
      List<String> messages = tester.rawMessages();
      int lastProgress = -1;
      int result = -1;
      for (int i = 0; i < messages.size(); i++) {
        if (messages.get(i).contains("notifications/progress")) {
          lastProgress = i;
        } else if (messages.get(i).contains("\"result\"") && messages.get(i).contains("\"3\"")) {
          result = i;
        }
      }
      assertThat(lastProgress).isGreaterThan(0).isLessThan(result);
    }
  }

  @Test
  void logMessagesReachTheClientAtTheDefaultInfoLevel() {
    try (FusionTester tester = tester()) {
      assertThat(tester.callTool("test_tool_with_logging", Map.of())).isSuccess();
      assertThat(tester.logs()).extracting(FusionTester.LogMessage::level).containsOnly("info");
      assertThat(tester.logs()).extracting(FusionTester.LogMessage::data).containsExactly(
          "Tool execution started", "Tool processing data", "Tool execution completed");
    }
  }

  @Test
  void logMessagesBelowTheClientsLevelAreNotSent() {
    try (FusionTester tester = tester()) {
      tester.setLogLevel(LogLevel.WARNING);
      assertThat(tester.callTool("test_tool_with_logging", Map.of())).isSuccess();
      assertThat(tester.logs()).isEmpty();
      tester.setLogLevel(LogLevel.DEBUG);
      tester.callTool("test_tool_with_logging", Map.of());
      assertThat(tester.logs()).hasSize(3);
    }
  }

  @Test
  void a2026RequestGetsLogMessagesOnlyAtTheLevelItNames() {
    try (FusionTester tester = tester().protocolVersion(FusionTester.MODERN)) {
      assertThat(tester.callTool("test_logging_tool", Map.of()).dataText())
          .isEqualTo("Logged nothing: the client wants no log messages at info");
      assertThat(tester.logs()).isEmpty();
      tester.callTool("test_logging_tool", Map.of(), Map.of("io.modelcontextprotocol/logLevel", "info"));
      assertThat(tester.logs()).containsExactly(new FusionTester.LogMessage("info", "Logging tool called"));
    }
  }

  @Test
  void aCancelledCallIsInterruptedAndSendsNoResult() throws InterruptedException {
    SlowTools slow = new SlowTools();
    try (FusionTester tester = FusionTester.of(slow)) {
      PendingCall call = tester.callAsync("slow_wait_for_cancel", Map.of(),
          Map.of("progressToken", "late"));
      assertThat(slow.started.await(10, TimeUnit.SECONDS)).isTrue();
      call.cancel();
      assertThat(slow.finished.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(slow.interrupted).isTrue();
      assertThat(slow.sawCancelled).isTrue();
      // The handler returned (and tried to report progress), yet nothing reaches the client.
      assertThat(call.await(Duration.ofMillis(300))).isEmpty();
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("\"id\":" + call.id() + ","))
          .noneMatch(m -> m.contains("late progress"));
      // The session goes on.
      assertThat(tester.callTool("slow_wait_for_cancel_missing", Map.of()).isError()).isTrue();
    }
  }

  @Test
  void contentBlocksFollowTheTextInOrder() {
    try (FusionTester tester = tester()) {
      ToolResult mixed = tester.callTool("test_multiple_content_types", Map.of());
      assertThat(mixed).isSuccess();
      assertThat(mixed.content()).extracting(c -> c.get("type")).containsExactly("text", "image", "resource");
      assertThat(mixed.content().get(0).get("text")).isEqualTo("Multiple content types test:");
      assertThat(mixed.content().get(1)).containsEntry("mimeType", "image/png")
          .containsEntry("data", ConformanceTools.PNG);
      assertThat(resource(mixed.content().get(2)))
          .containsEntry("uri", "test://mixed-content-resource")
          .containsEntry("mimeType", "application/json");
    }
  }

  @Test
  void aVoidHandlersAttachmentsAreTheWholeContent() {
    try (FusionTester tester = tester()) {
      ToolResult audio = tester.callTool("test_audio_content", Map.of());
      assertThat(audio.content()).containsExactly(
          Map.of("type", "audio", "data", ConformanceTools.WAV, "mimeType", "audio/wav"));
      ToolResult embedded = tester.callTool("test_embedded_resource", Map.of());
      assertThat(embedded.content()).hasSize(1);
      assertThat(resource(embedded.content().get(0)))
          .containsEntry("text", "This is an embedded resource content.");
    }
  }

  @Test
  void contentIsWrittenInThe2026Era() {
    try (FusionTester tester = tester().protocolVersion(FusionTester.MODERN)) {
      ToolResult image = tester.callTool("test_image_content", Map.of());
      assertThat(image).isSuccess();
      assertThat(image.content()).extracting(c -> c.get("type")).containsExactly("image");
    }
  }

  @Test
  void anErrorCarriesNoAttachments() {
    try (FusionTester tester = tester()) {
      ToolResult r = tester.callTool("test_error_handling", Map.of());
      assertThat(r).isError().hasCode("TEST_ERROR");
      assertThat(r.content()).extracting(c -> c.get("type")).containsOnly("text");
      assertThat(r.errorText()).contains("This tool intentionally returns an error for testing");
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> resource(Map<String, Object> block) {
    return (Map<String, Object>) block.get("resource");
  }
}
