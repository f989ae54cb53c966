package dev.mcpfusion.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.testing.FusionTester;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Issue 4 §3: the W3C parent from {@code params._meta} or the headers, strictly parsed. */
class TraceParentTest {
  static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String SPAN_ID = "00f067aa0ba902b7";
  static final String VALID = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";
  static final String HEADER_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  static final String HEADER_SPAN_ID = "b7ad6b7169203331";
  static final String HEADER_VALID = "00-" + HEADER_TRACE_ID + "-" + HEADER_SPAN_ID + "-01";

  private final OtelHarness harness = new OtelHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("uppercase", VALID.toUpperCase()),
        Arguments.of("uppercase trace id only", "00-" + TRACE_ID.toUpperCase() + "-" + SPAN_ID + "-01"),
        Arguments.of("version ff", "ff-" + TRACE_ID + "-" + SPAN_ID + "-01"),
        Arguments.of("version 01", "01-" + TRACE_ID + "-" + SPAN_ID + "-01"),
        Arguments.of("all-zero trace id", "00-" + "0".repeat(32) + "-" + SPAN_ID + "-01"),
        Arguments.of("all-zero span id", "00-" + TRACE_ID + "-" + "0".repeat(16) + "-01"),
        Arguments.of("short trace id", "00-" + TRACE_ID.substring(2) + "-" + SPAN_ID + "-01"),
        Arguments.of("long span id", "00-" + TRACE_ID + "-" + SPAN_ID + "00-01"),
        Arguments.of("three-digit flags", "00-" + TRACE_ID + "-" + SPAN_ID + "-001"),
        Arguments.of("extra field", VALID + "-extra"),
        Arguments.of("missing field", "00-" + TRACE_ID + "-" + SPAN_ID),
        Arguments.of("blank padded", " " + VALID));
  }

  // ---- params._meta ----------------------------------------------------------------------------

  @Test
  void aValidMetaTraceparentIsTheParent() {
    harness.tester(Exposition.FLAT).callTool("ops_get_item", Map.of("id", "ITM-1"),
        Map.of("traceparent", VALID));
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
    assertThat(span.getParentSpanId()).isEqualTo(SPAN_ID);
    assertThat(span.getParentSpanContext().isRemote()).isTrue();
    assertThat(span.getParentSpanContext().isSampled()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void aMalformedMetaTraceparentGivesARootSpan(String why, String traceparent) {
    harness.tester(Exposition.FLAT).callTool("ops_get_item", Map.of("id", "ITM-1"),
        Map.of("traceparent", traceparent, "tracestate", "vendor=abc"));
    SpanData span = harness.onlyToolSpan();
    assertRoot(span);
    assertThat(span.getSpanContext().getTraceState().isEmpty()).isTrue();
  }

  @Test
  void metaTracestateWithinItsLimitIsKeptAndOverItIsDropped() {
    FusionTester tester = harness.tester(Exposition.FLAT);
    tester.callTool("ops_get_item", Map.of("id", "ITM-1"),
        Map.of("traceparent", VALID, "tracestate", tracestate(512)));
    tester.callTool("ops_get_item", Map.of("id", "ITM-1"),
        Map.of("traceparent", VALID, "tracestate", tracestate(513)));
    assertThat(harness.toolSpans()).hasSize(2);
    SpanData kept = harness.toolSpans().get(0);
    SpanData dropped = harness.toolSpans().get(1);
    assertThat(kept.getSpanContext().getTraceState().size()).isEqualTo(12);
    assertThat(kept.getSpanContext().getTraceState().get("k00")).startsWith("v");
    assertThat(dropped.getSpanContext().getTraceState().isEmpty()).isTrue();
    // the parent itself survives a dropped tracestate
    assertThat(dropped.getParentSpanId()).isEqualTo(SPAN_ID);
  }

  @Test
  void metaBaggageWithinItsLimitReachesTheHandlerAndOverItIsDropped() {
    FusionTester tester = harness.tester(Exposition.FLAT);
    assertThat(tester.callTool("ops_child_span", Map.of(),
        Map.of("traceparent", VALID, "baggage", baggage(8192))).dataText()).isEqualTo("alice");
    assertThat(tester.callTool("ops_child_span", Map.of(),
        Map.of("traceparent", VALID, "baggage", baggage(8193))).dataText()).isEqualTo("none");
    assertThat(tester.callTool("ops_child_span", Map.of(),
        Map.of("baggage", "user=bob")).dataText()).isEqualTo("bob");
  }

  // ---- headers ---------------------------------------------------------------------------------

  @Test
  void aValidHeaderTraceparentIsTheParent() {
    harness.tester(Exposition.FLAT).header("traceparent", HEADER_VALID)
        .callTool("ops_get_item", Map.of("id", "ITM-1"));
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getTraceId()).isEqualTo(HEADER_TRACE_ID);
    assertThat(span.getParentSpanId()).isEqualTo(HEADER_SPAN_ID);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void aMalformedHeaderTraceparentGivesARootSpan(String why, String traceparent) {
    harness.tester(Exposition.FLAT).header("traceparent", traceparent)
        .callTool("ops_get_item", Map.of("id", "ITM-1"));
    assertRoot(harness.onlyToolSpan());
  }

  @Test
  void headerTracestateAndBaggageOverTheirLimitsAreDropped() {
    FusionTester kept = harness.tester(Exposition.FLAT).header("traceparent", HEADER_VALID)
        .header("tracestate", tracestate(512)).header("baggage", baggage(8192));
    assertThat(kept.callTool("ops_child_span", Map.of()).dataText()).isEqualTo("alice");
    FusionTester over = harness.tester(Exposition.FLAT).header("traceparent", HEADER_VALID)
        .header("tracestate", tracestate(513)).header("baggage", baggage(8193));
    assertThat(over.callTool("ops_child_span", Map.of()).dataText()).isEqualTo("none");
    assertThat(harness.toolSpans()).hasSize(2);
    assertThat(harness.toolSpans().get(0).getSpanContext().getTraceState().size()).isEqualTo(12);
    assertThat(harness.toolSpans().get(1).getSpanContext().getTraceState().isEmpty()).isTrue();
    assertThat(harness.toolSpans().get(1).getParentSpanId()).isEqualTo(HEADER_SPAN_ID);
  }

  @Test
  void metaOverridesHeaders() {
    harness.tester(Exposition.FLAT).header("traceparent", HEADER_VALID).header("baggage", "user=header")
        .callTool("ops_get_item", Map.of("id", "ITM-1"), Map.of("traceparent", VALID));
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
    assertThat(span.getParentSpanId()).isEqualTo(SPAN_ID);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void aMalformedMetaTraceparentLosesToAValidHeader(String why, String traceparent) {
    String user = harness.tester(Exposition.FLAT).header("traceparent", HEADER_VALID)
        .header("baggage", "user=header")
        .callTool("ops_child_span", Map.of(), Map.of("traceparent", traceparent, "baggage", "user=meta"))
        .dataText();
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getTraceId()).isEqualTo(HEADER_TRACE_ID);
    assertThat(span.getParentSpanId()).isEqualTo(HEADER_SPAN_ID);
    // the winning carrier brings its own baggage
    assertThat(user).isEqualTo("header");
  }

  // ---- the edge: unknown tools -----------------------------------------------------------------

  @Test
  void anUnknownToolContinuesTheMetaParent() {
    harness.tester(Exposition.FLAT).callTool("nope", Map.of(), Map.of("traceparent", VALID));
    SpanData span = harness.onlyToolSpan();
    assertThat(span.getName()).isEqualTo("tools/call nope");
    assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
    assertThat(span.getParentSpanId()).isEqualTo(SPAN_ID);
  }

  @Test
  void anUnknownToolContinuesTheHeaderParentUnlessMetaIsValid() {
    FusionTester tester = harness.tester(Exposition.FLAT).header("traceparent", HEADER_VALID);
    tester.callTool("nope", Map.of());
    tester.callTool("nope", Map.of(), Map.of("traceparent", VALID.toUpperCase()));
    tester.callTool("nope", Map.of(), Map.of("traceparent", VALID));
    assertThat(harness.toolSpans()).extracting(SpanData::getParentSpanId)
        .containsExactly(HEADER_SPAN_ID, HEADER_SPAN_ID, SPAN_ID);
  }

  @Test
  void concurrentCallsEachContinueTheirOwnParent() throws Exception {
    FusionTester tester = harness.tester(Exposition.FLAT);
    int calls = 24;
    Map<String, String> parentOfTrace = new java.util.concurrent.ConcurrentHashMap<>();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
    try {
      List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
      for (int i = 0; i < calls; i++) {
        String traceId = dev.mcpfusion.core.trace.TraceIds.newTraceId();
        String spanId = dev.mcpfusion.core.trace.TraceIds.newSpanId();
        parentOfTrace.put(traceId, spanId);
        String tool = i % 3 == 0 ? "ops_explode" : i % 3 == 1 ? "ops_child_span" : "nope";
        futures.add(pool.submit(() -> tester.callTool(tool, Map.of(),
            Map.of("traceparent", "00-" + traceId + "-" + spanId + "-01"))));
      }
      for (java.util.concurrent.Future<?> f : futures) {
        f.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(harness.toolSpans()).hasSize(calls);
    for (SpanData span : harness.toolSpans()) {
      assertThat(span.getParentSpanId()).isEqualTo(parentOfTrace.get(span.getTraceId()));
    }
    assertThat(harness.leaks).isEmpty();
  }

  private static void assertRoot(SpanData span) {
    assertThat(span.getParentSpanContext().isValid()).isFalse();
    assertThat(span.getTraceId()).isNotIn(TRACE_ID, TRACE_ID.toUpperCase());
    assertThat(span.getSpanContext().isValid()).isTrue();
  }

  /** A valid tracestate of 12 entries, exactly {@code length} characters long. */
  static String tracestate(int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      if (i > 0) {
        s.append(',');
      }
      s.append(String.format("k%02d=v", i));
    }
    int pad = length - s.length();
    // spread the padding over the values (each value stays under W3C's 256 characters)
    Map<Integer, Integer> extra = new LinkedHashMap<>();
    for (int i = 0; i < pad; i++) {
      extra.merge(i % 12, 1, Integer::sum);
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(String.format("k%02d=v", i)).append("x".repeat(extra.getOrDefault(i, 0)));
    }
    assertThat(out).hasSize(length);
    return out.toString();
  }

  /** A baggage header carrying {@code user=alice}, exactly {@code bytes} UTF-8 bytes long. */
  static String baggage(int bytes) {
    String head = "user=alice,pad=";
    String b = head + "x".repeat(bytes - head.length());
    assertThat(b.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(bytes);
    return b;
  }
}
