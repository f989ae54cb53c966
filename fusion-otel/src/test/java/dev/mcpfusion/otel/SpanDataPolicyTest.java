package dev.mcpfusion.otel;

import static dev.mcpfusion.otel.OtelHarness.attr;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.otel.fixtures.Ops;
import dev.mcpfusion.testing.FusionTester;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 §1-2: no argument value, no result data and no exception message in a span by default;
 * the opt-ins record the stripped result only, and the exception's message.
 */
class SpanDataPolicyTest {
  private final OtelHarness harness = new OtelHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  private void everyOutcome(FusionTester tester) {
    tester.callTool("ops_get_item", Map.of("id", "ITM-1"));
    tester.callTool("ops_get_item", Map.of("id", "ITM-" + Ops.SENTINEL));
    tester.callTool("ops_get_item", Map.of("id", "ITM-404"));
    tester.callTool("ops_get_item", Map.of("id", "ITM-2", Ops.SENTINEL, Ops.SENTINEL));
    tester.callTool("ops_returned_error", Map.of());
    tester.callTool("ops_explode", Map.of());
    tester.callTool("ops_child_span", Map.of());
    tester.callTool("ops_" + "nope", Map.of("secret", Ops.SENTINEL));
  }

  @Test
  void byDefaultNoHiddenValueArgumentValueResultOrExceptionMessageReachesAnySpan() {
    everyOutcome(harness.tester(Exposition.FLAT));
    List<SpanData> spans = harness.exporter.getFinishedSpanItems();
    assertThat(harness.toolSpans()).hasSize(8);
    for (SpanData span : spans) {
      List<String> values = OtelHarness.allValues(span);
      assertThat(values).as(span.getName()).noneMatch(v -> v != null && v.contains(Ops.SENTINEL));
      assertThat(values).as(span.getName()).noneMatch(v -> v != null && v.contains("hunter2"));
      assertThat(values).as(span.getName()).noneMatch(v -> v != null && v.contains("Item ITM-1"));
      assertThat(attr(span, "mcpfusion.result")).isNull();
    }
  }

  @Test
  void aValidationMessageNamesDeclaredFieldsButNeitherValuesNorUnacceptedKeys() {
    FusionTester tester = harness.tester(Exposition.FLAT);
    tester.callTool("ops_get_item", Map.of("id", "ITM-" + Ops.SENTINEL));
    tester.callTool("ops_get_item", Map.of("id", "ITM-2", "idd", Ops.SENTINEL));
    assertThat(harness.toolSpans()).extracting(s -> attr(s, "mcpfusion.error.message")).containsExactly(
        "Invalid arguments: id must match \"ITM-\\d+\"",
        "Invalid arguments: (a field) is not an accepted field (did you mean \"id\"?)");
  }

  @Test
  void theResultOptInRecordsTheStrippedDataOnly() {
    FusionTester tester = harness.tester(Exposition.FLAT, new TraceOptions(true, false));
    everyOutcome(tester);
    SpanData success = harness.toolSpans().get(0);
    assertThat(attr(success, "mcpfusion.result")).isEqualTo("{\"id\":\"ITM-1\",\"name\":\"Item ITM-1\"}");
    for (SpanData span : harness.exporter.getFinishedSpanItems()) {
      assertThat(OtelHarness.allValues(span)).as(span.getName())
          .noneMatch(v -> v != null && (v.contains(Ops.SENTINEL) || v.contains("hunter2")));
    }
    // failures carry no result
    assertThat(harness.toolSpans().subList(1, 6)).allSatisfy(s -> assertThat(attr(s, "mcpfusion.result")).isNull());
  }

  @Test
  void theCallerIsRecordedOnlyOnItsOptInAndAsItsSubjectOnly() {
    dev.mcpfusion.core.Caller alice = dev.mcpfusion.core.Caller.of("alice", "cli-7",
        List.of("ops:read"), Map.of("email", "alice@example.com"));
    harness.tester(Exposition.FLAT).caller(alice).callTool("ops_get_item", Map.of("id", "ITM-1"));
    SpanData off = harness.toolSpans().get(0);
    assertThat(attr(off, "user.id")).isNull();
    assertThat(OtelHarness.allValues(off)).noneMatch(v -> v != null && v.contains("alice"));
    harness.exporter.reset();

    FusionTester on = harness.tester(Exposition.FLAT, TraceOptions.DEFAULT.withCaller());
    on.caller(alice).callTool("ops_get_item", Map.of("id", "ITM-1"));
    SpanData recorded = harness.toolSpans().get(0);
    assertThat(attr(recorded, "user.id")).isEqualTo("alice");
    assertThat(OtelHarness.allValues(recorded)).noneMatch(v -> v != null
        && (v.contains("cli-7") || v.contains("ops:read") || v.contains("alice@example.com")));
    harness.exporter.reset();
    // The local caller (stdio, no authenticator) is nobody in particular: nothing is recorded.
    harness.tester(Exposition.FLAT, TraceOptions.DEFAULT.withCaller())
        .callTool("ops_get_item", Map.of("id", "ITM-1"));
    assertThat(attr(harness.toolSpans().get(0), "user.id")).isNull();
  }

  @Test
  void theMessageOptInRecordsTheExceptionMessages() {
    harness.tester(Exposition.FLAT, new TraceOptions(false, true)).callTool("ops_explode", Map.of());
    SpanData span = harness.onlyToolSpan();
    EventData event = span.getEvents().get(0);
    assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message")))
        .isEqualTo(Ops.EXCEPTION_TEXT);
    assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.stacktrace")))
        .startsWith("java.lang.IllegalStateException: " + Ops.EXCEPTION_TEXT)
        .contains("Caused by: java.lang.IllegalArgumentException: cause: " + Ops.EXCEPTION_TEXT);
    // the agent still sees none of it
    assertThat(harness.toolSpans()).hasSize(1);
  }
}
