package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.samples.billing.fixtures.StreamTools;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Truncation costs the limit, not the size, and always closes what it reads. */
class StreamTruncationTest {
  private static final String MORE_AVAILABLE = "<ui_passthrough type=\"summary\">\n"
      + "📊 **Summary**: ⚠️ Dataset truncated. 50 shown, more available. Use filters to narrow results.\n"
      + "</ui_passthrough>";

  @Test
  void millionRowStreamPullsLimitPlusOneAndIsClosed() {
    StreamTools tools = new StreamTools();
    try (FusionTester tester = FusionTester.of(tools)) {
      ToolResult r = tester.call("feed", "million_rows", Map.of());

      assertThat(r).isSuccess();
      assertThat((List<?>) r.data()).hasSize(50);
      assertThat(r.blocks()).contains(MORE_AVAILABLE);
      assertThat(r.structuredContent().get("truncated")).isEqualTo(Map.of("shown", 50, "more", true));
      assertThat(tools.pulled.get()).isEqualTo(51);
      assertThat(tools.closed.get()).isTrue();
    }
  }

  @Test
  void endlessStreamPullsLimitPlusOneAndIsClosed() {
    StreamTools tools = new StreamTools();
    try (FusionTester tester = FusionTester.of(tools)) {
      ToolResult r = tester.call("feed", "endless_rows", Map.of());

      assertThat(r).isSuccess();
      assertThat(r.blocks()).contains(MORE_AVAILABLE);
      assertThat(tools.pulled.get()).isEqualTo(51);
      assertThat(tools.closed.get()).isTrue();
    }
  }
}
