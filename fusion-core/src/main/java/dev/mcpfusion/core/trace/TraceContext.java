package dev.mcpfusion.core.trace;

import dev.mcpfusion.core.RequestContext;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The W3C Trace Context a call continues: the parent from {@code traceparent}, with
 * {@code tracestate} and {@code baggage} passed on verbatim.
 *
 * <p>Parsing is strict: a {@code traceparent} is exactly {@code 00-<32 hex>-<16 hex>-<2 hex>} in
 * lowercase with non-zero ids; anything else (another version, uppercase, wrong lengths, extra
 * fields, surrounding blanks) means no parent, and no parent is ever made up. A
 * {@code tracestate} longer than {@value #TRACESTATE_MAX_CHARS} characters or a {@code baggage}
 * longer than {@value #BAGGAGE_MAX_BYTES} UTF-8 bytes is dropped whole, never truncated.
 */
public final class TraceContext {
  /** The longest {@code tracestate} passed on, in characters. */
  public static final int TRACESTATE_MAX_CHARS = 512;
  /** The longest {@code baggage} passed on, in UTF-8 bytes. */
  public static final int BAGGAGE_MAX_BYTES = 8192;

  /** The W3C field and {@code _meta} key names. */
  public static final String TRACEPARENT = "traceparent";
  /** The {@code tracestate} field. */
  public static final String TRACESTATE = "tracestate";
  /** The {@code baggage} field. */
  public static final String BAGGAGE = "baggage";

  /** No parent, no trace state, no baggage: the call's span is a root. */
  public static final TraceContext EMPTY = new TraceContext(null, null, null, null, null);

  private final String traceId;
  private final String spanId;
  private final String traceFlags;
  private final String traceState;
  private final String baggage;

  private TraceContext(String traceId, String spanId, String traceFlags, String traceState,
      String baggage) {
    this.traceId = traceId;
    this.spanId = spanId;
    this.traceFlags = traceFlags;
    this.traceState = traceState;
    this.baggage = baggage;
  }

  /**
   * Parses the three W3C fields of one carrier; any may be {@code null}. An invalid
   * {@code traceparent} gives no parent and drops {@code tracestate} (which only qualifies a
   * parent); {@code baggage} stands alone and is kept when within its limit.
   */
  public static TraceContext parse(String traceparent, String tracestate, String baggage) {
    String[] parent = parseTraceparent(traceparent);
    String keptBaggage = acceptBaggage(baggage);
    if (parent == null) {
      return keptBaggage == null ? EMPTY : new TraceContext(null, null, null, null, keptBaggage);
    }
    return new TraceContext(parent[0], parent[1], parent[2], acceptTraceState(tracestate),
        keptBaggage);
  }

  /** Whether {@code traceparent} is a valid version-00 {@code traceparent}, by the rules above. */
  public static boolean isValidTraceparent(String traceparent) {
    return parseTraceparent(traceparent) != null;
  }

  /**
   * The context of a request: its {@code params._meta} first, then its transport headers; the
   * first carrier with a valid {@code traceparent} wins with its own {@code tracestate} and
   * {@code baggage}. With no valid parent anywhere, the first acceptable {@code baggage} is still
   * passed on.
   */
  public static TraceContext from(RequestContext request) {
    if (request == null) {
      return EMPTY;
    }
    TraceContext fromMeta = parse(metaString(request, TRACEPARENT), metaString(request, TRACESTATE),
        metaString(request, BAGGAGE));
    if (fromMeta.hasParent()) {
      return fromMeta;
    }
    TraceContext fromHeaders = parse(request.header(TRACEPARENT).orElse(null),
        request.header(TRACESTATE).orElse(null), request.header(BAGGAGE).orElse(null));
    if (fromHeaders.hasParent() || fromMeta.baggage == null) {
      return fromHeaders;
    }
    return fromMeta;
  }

  private static String metaString(RequestContext request, String key) {
    Object value = request.meta().get(key);
    return value instanceof String s ? s : null;
  }

  /** {traceId, spanId, flags} or {@code null}. */
  private static String[] parseTraceparent(String s) {
    // 2 + 1 + 32 + 1 + 16 + 1 + 2: exactly four fields, no trailing data.
    if (s == null || s.length() != 55) {
      return null;
    }
    if (s.charAt(0) != '0' || s.charAt(1) != '0' || s.charAt(2) != '-' || s.charAt(35) != '-'
        || s.charAt(52) != '-') {
      return null;
    }
    String traceId = s.substring(3, 35);
    String spanId = s.substring(36, 52);
    String flags = s.substring(53, 55);
    if (!TraceIds.isValidTraceId(traceId) || !TraceIds.isValidSpanId(spanId)
        || !TraceIds.isLowerHex(flags, 2)) {
      return null;
    }
    return new String[] {traceId, spanId, flags};
  }

  private static String acceptTraceState(String tracestate) {
    if (tracestate == null || tracestate.isEmpty() || tracestate.length() > TRACESTATE_MAX_CHARS) {
      return null;
    }
    return tracestate;
  }

  private static String acceptBaggage(String baggage) {
    if (baggage == null || baggage.isEmpty()) {
      return null;
    }
    // A UTF-8 byte count is at least the char count and at most three times it.
    if (baggage.length() > BAGGAGE_MAX_BYTES
        || (baggage.length() * 3 > BAGGAGE_MAX_BYTES
            && baggage.getBytes(StandardCharsets.UTF_8).length > BAGGAGE_MAX_BYTES)) {
      return null;
    }
    return baggage;
  }

  /** Whether a valid parent was found (else the span is a root). */
  public boolean hasParent() {
    return traceId != null;
  }

  /** The parent's trace id (32 lowercase hex), or {@code null} without a parent. */
  public String traceId() {
    return traceId;
  }

  /** The parent span id (16 lowercase hex), or {@code null} without a parent. */
  public String spanId() {
    return spanId;
  }

  /** The parent's trace flags (2 lowercase hex), or {@code null} without a parent. */
  public String traceFlags() {
    return traceFlags;
  }

  /** Whether the parent's {@code sampled} flag is set. */
  public boolean sampled() {
    return traceFlags != null && (Integer.parseInt(traceFlags, 16) & 1) == 1;
  }

  /** The {@code tracestate}, verbatim, when a parent was found and it was within its limit. */
  public Optional<String> traceState() {
    return Optional.ofNullable(traceState);
  }

  /** The {@code baggage}, verbatim, when it was within its limit. */
  public Optional<String> baggage() {
    return Optional.ofNullable(baggage);
  }

  /** The parent as a {@code traceparent} value, or {@code null} without a parent. */
  public String traceparent() {
    return traceId == null ? null : "00-" + traceId + "-" + spanId + "-" + traceFlags;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TraceContext other
        && Objects.equals(traceId, other.traceId) && Objects.equals(spanId, other.spanId)
        && Objects.equals(traceFlags, other.traceFlags)
        && Objects.equals(traceState, other.traceState) && Objects.equals(baggage, other.baggage);
  }

  @Override
  public int hashCode() {
    return Objects.hash(traceId, spanId, traceFlags, traceState, baggage);
  }

  @Override
  public String toString() {
    return "TraceContext{traceparent=" + traceparent() + ", tracestate=" + traceState
        + ", baggage=" + (baggage == null ? null : baggage.length() + " chars") + "}";
  }
}
