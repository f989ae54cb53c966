package dev.mcpfusion.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.RequestContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TraceContextTest {
  static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  static final String SPAN_ID = "00f067aa0ba902b7";
  static final String VALID = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";
  static final String OTHER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";

  @Test
  void validTraceparentGivesItsParent() {
    TraceContext c = TraceContext.parse(VALID, "vendor=abc", "user=alice");
    assertThat(c.hasParent()).isTrue();
    assertThat(c.traceId()).isEqualTo(TRACE_ID);
    assertThat(c.spanId()).isEqualTo(SPAN_ID);
    assertThat(c.traceFlags()).isEqualTo("01");
    assertThat(c.sampled()).isTrue();
    assertThat(c.traceState()).contains("vendor=abc");
    assertThat(c.baggage()).contains("user=alice");
    assertThat(c.traceparent()).isEqualTo(VALID);
  }

  @Test
  void unsampledFlagsAreKept() {
    TraceContext c = TraceContext.parse(OTHER, null, null);
    assertThat(c.sampled()).isFalse();
    assertThat(c.traceFlags()).isEqualTo("00");
    assertThat(c.traceparent()).isEqualTo(OTHER);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("uppercase trace id", "00-" + TRACE_ID.toUpperCase() + "-" + SPAN_ID + "-01"),
        Arguments.of("uppercase span id", "00-" + TRACE_ID + "-00F067AA0BA902B7-01"),
        Arguments.of("uppercase flags", "00-" + TRACE_ID + "-" + SPAN_ID + "-0A"),
        Arguments.of("version ff", "ff-" + TRACE_ID + "-" + SPAN_ID + "-01"),
        Arguments.of("version 01", "01-" + TRACE_ID + "-" + SPAN_ID + "-01"),
        Arguments.of("all-zero trace id", "00-" + "0".repeat(32) + "-" + SPAN_ID + "-01"),
        Arguments.of("all-zero span id", "00-" + TRACE_ID + "-" + "0".repeat(16) + "-01"),
        Arguments.of("short trace id", "00-" + TRACE_ID.substring(1) + "-" + SPAN_ID + "-01"),
        Arguments.of("long trace id", "00-" + TRACE_ID + "a-" + SPAN_ID + "-01"),
        Arguments.of("short span id", "00-" + TRACE_ID + "-" + SPAN_ID.substring(1) + "-01"),
        Arguments.of("long span id", "00-" + TRACE_ID + "-" + SPAN_ID + "0-01"),
        Arguments.of("one-digit flags", "00-" + TRACE_ID + "-" + SPAN_ID + "-1"),
        Arguments.of("three-digit flags", "00-" + TRACE_ID + "-" + SPAN_ID + "-011"),
        Arguments.of("extra field", VALID + "-00"),
        Arguments.of("three fields", "00-" + TRACE_ID + "-" + SPAN_ID),
        Arguments.of("non-hex", "00-" + TRACE_ID.replace('a', 'g') + "-" + SPAN_ID + "-01"),
        Arguments.of("leading blank", " " + VALID.substring(1)),
        Arguments.of("surrounding blanks", " " + VALID + " "),
        Arguments.of("underscores", VALID.replace('-', '_')),
        Arguments.of("two parents joined", VALID + ", " + OTHER),
        Arguments.of("empty", ""),
        Arguments.of("null", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedTraceparentGivesNoParentAndDropsTracestate(String why, String traceparent) {
    TraceContext c = TraceContext.parse(traceparent, "vendor=abc", null);
    assertThat(c.hasParent()).isFalse();
    assertThat(c.traceId()).isNull();
    assertThat(c.spanId()).isNull();
    assertThat(c.traceparent()).isNull();
    assertThat(c.traceState()).isEmpty();
    assertThat(c).isEqualTo(TraceContext.EMPTY);
    assertThat(TraceContext.isValidTraceparent(traceparent)).isFalse();
  }

  @Test
  void tracestateAtItsLimitIsKeptVerbatimAndOverItIsDropped() {
    String atLimit = "k=" + "v".repeat(TraceContext.TRACESTATE_MAX_CHARS - 2);
    String over = atLimit + "v";
    assertThat(TraceContext.parse(VALID, atLimit, null).traceState()).contains(atLimit);
    assertThat(TraceContext.parse(VALID, over, null).traceState()).isEmpty();
    assertThat(TraceContext.parse(VALID, over, null).hasParent()).isTrue();
  }

  @Test
  void baggageIsMeasuredInUtf8BytesAndDroppedWholeWhenOver() {
    String atLimit = "k=" + "v".repeat(TraceContext.BAGGAGE_MAX_BYTES - 2);
    assertThat(TraceContext.parse(VALID, null, atLimit).baggage()).contains(atLimit);
    assertThat(TraceContext.parse(VALID, null, atLimit + "v").baggage()).isEmpty();
    // two-byte characters: 4097 chars are 8192 bytes (kept), 4098 chars 8194 bytes (dropped)
    String fits = "k=" + "\u00e9".repeat(4095);
    assertThat(TraceContext.parse(VALID, null, fits).baggage()).contains(fits);
    String over = fits + "\u00e9";
    assertThat(over.length()).isLessThan(TraceContext.BAGGAGE_MAX_BYTES);
    assertThat(TraceContext.parse(VALID, null, over).baggage()).isEmpty();
  }

  @Test
  void baggageStandsAloneWithoutParent() {
    TraceContext c = TraceContext.parse("garbage", "vendor=abc", "user=alice");
    assertThat(c.hasParent()).isFalse();
    assertThat(c.traceState()).isEmpty();
    assertThat(c.baggage()).contains("user=alice");
  }

  @Test
  void metaComesFirst() {
    RequestContext r = request(Map.of("traceparent", VALID), Map.of("traceparent", OTHER));
    assertThat(TraceContext.from(r).traceparent()).isEqualTo(VALID);
  }

  @Test
  void headersAreUsedWithoutMeta() {
    RequestContext r = request(Map.of(), Map.of("Traceparent", OTHER, "TraceState", "a=b",
        "Baggage", "x=y"));
    TraceContext c = TraceContext.from(r);
    assertThat(c.traceparent()).isEqualTo(OTHER);
    assertThat(c.traceState()).contains("a=b");
    assertThat(c.baggage()).contains("x=y");
  }

  @Test
  void malformedMetaTraceparentLosesToAValidHeaderWithItsOwnState() {
    RequestContext r = request(
        Map.of("traceparent", VALID.toUpperCase(), "tracestate", "meta=1", "baggage", "m=1"),
        Map.of("traceparent", OTHER, "tracestate", "header=1", "baggage", "h=1"));
    TraceContext c = TraceContext.from(r);
    assertThat(c.traceparent()).isEqualTo(OTHER);
    assertThat(c.traceState()).contains("header=1");
    assertThat(c.baggage()).contains("h=1");
  }

  @Test
  void nonStringMetaValuesAreIgnored() {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("traceparent", Map.of("value", VALID));
    assertThat(TraceContext.from(request(meta, Map.of()))).isEqualTo(TraceContext.EMPTY);
  }

  @Test
  void nothingValidAnywhereIsARoot() {
    RequestContext r = request(Map.of("traceparent", "ff-" + VALID.substring(3)),
        Map.of("traceparent", "00-" + "0".repeat(32) + "-" + SPAN_ID + "-01"));
    assertThat(TraceContext.from(r).hasParent()).isFalse();
    assertThat(TraceContext.from(RequestContext.empty())).isEqualTo(TraceContext.EMPTY);
    assertThat(TraceContext.from(null)).isEqualTo(TraceContext.EMPTY);
  }

  @Test
  void withoutAnyParentTheMetaBaggageIsPassedOn() {
    RequestContext r = request(Map.of("baggage", "m=1"), Map.of("baggage", "h=1"));
    assertThat(TraceContext.from(r).baggage()).contains("m=1");
    RequestContext headerOnly = request(Map.of(), Map.of("baggage", "h=1"));
    assertThat(TraceContext.from(headerOnly).baggage()).contains("h=1");
  }

  private static RequestContext request(Map<String, ?> meta, Map<String, String> headers) {
    return RequestContext.of(headers, new LinkedHashMap<>(meta), null, null);
  }
}
