package dev.mcpfusion.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Reply;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a request span records, told through {@link RequestTrace} alone. */
class RequestTraceTest {
  private final TracedPipelineTest.RecordingTracer tracer = new TracedPipelineTest.RecordingTracer();

  private static FusionTracer withOptions(TracedPipelineTest.RecordingTracer tracer,
      TraceOptions options) {
    return new FusionTracer() {
      @Override
      public FusionSpan startSpan(String name, TraceContext parent, Map<String, Object> attributes) {
        return tracer.startSpan(name, parent, attributes);
      }

      @Override
      public TraceOptions options() {
        return options;
      }
    };
  }

  private RequestTrace tool() {
    return SpanStart.tool(tracer, "billing_get_invoice", Exposition.FLAT, "billing",
        "get_invoice", RequestContext.empty(), 7, Map.of("id", "INV-1"));
  }

  @Test
  void withoutATracerEveryRequestGetsTheSharedTraceThatRecordsNothing() throws Exception {
    FusionTracer none = FusionTracer.NOOP;
    assertThat(SpanStart.tool(none, "t", Exposition.FLAT, "r", "a", RequestContext.empty(), 1,
        Map.of())).isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.prompt(none, "p", null, RequestContext.empty(), 1, Map.of()))
        .isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.resource(none, "a://b", null, null, RequestContext.empty(), 1))
        .isSameAs(RequestTrace.OFF);
    assertThat(SpanStart.completion(none, "p", null, null, RequestContext.empty(), 1,
        Map.of("name", "x"), null)).isSameAs(RequestTrace.OFF);

    RequestTrace off = RequestTrace.OFF;
    assertThat(off.recording()).isFalse();
    // Everything it is told is dropped, and it never reaches a tracer.
    off.action("a");
    off.unknownAction("x", "r");
    off.agentError("no");
    off.rpcError(JsonRpc.INVALID_PARAMS, "T", "m");
    off.replied(ErrorReplies.serverBusy("r", "a", 1, 0));
    off.written(new byte[] {'{', '}'}, 0);
    off.end();
    assertThat(off.withCurrent(() -> "ran")).isEqualTo("ran");
    assertThat(tracer.spans).isEmpty();
    assertThat(tool().recording()).isTrue();
  }

  @Test
  void anAgentErrorToldByWhatHappenedReadsAsTheAgentWasTold() {
    RequestTrace unknown = tool();
    unknown.unknownAction("lsit", "billing");
    unknown.replied(ErrorReplies.unknownAction("billing", "lsit", List.of("billing (action: list)")));
    unknown.end();
    RequestTrace late = tool();
    late.timedOut(250);
    late.replied(ErrorReplies.timeout("billing", "get_invoice", 250));
    late.end();
    assertThat(tracer.spans).extracting(span -> span.attributes.get("mcpfusion.error.message"))
        .containsExactly("The action \"lsit\" does not exist in billing.",
            "The call did not finish within 250 ms.");
  }

  @Test
  void theOutcomeIsTheRepliesCodeWhateverItsTextOrMetaSay() {
    Reply busy = ErrorReplies.serverBusy("billing", "get_invoice", 1, 0);
    // A later step rewrote the reply: no text block, no mcpfusion/error entry left.
    Reply rewritten = busy.rewritten(List.of("something else entirely"), null, Map.of(), -1);
    Reply emptied = busy.rewritten(List.of(), null, Map.of(), -1);
    for (Reply reply : List.of(busy, rewritten, emptied)) {
      RequestTrace trace = tool();
      trace.replied(reply);
      trace.end();
    }
    assertThat(tracer.spans).hasSize(3).allSatisfy(span -> {
      assertThat(span.attributes).containsEntry("error.type", "SERVER_BUSY");
      assertThat(span.status).isEqualTo(SpanStatus.UNSET);
    });
  }

  @Test
  void aJsonRpcErrorRecordsItsCodeAndOurType() {
    RequestTrace trace = SpanStart.prompt(tracer, "nope", null, RequestContext.empty(), "p-1",
        Map.of());
    trace.rpcError(JsonRpc.INVALID_PARAMS, "UNKNOWN_PROMPT", "The prompt \"nope\" does not exist.");
    trace.end();
    RequestTrace untyped = tool();
    untyped.rpcError(JsonRpc.MISSING_REQUIRED_CLIENT_CAPABILITY, null, "Missing capability");
    untyped.end();

    TracedPipelineTest.Recorded span = tracer.spans.get(0);
    assertThat(span.name).isEqualTo("prompts/get nope");
    assertThat(span.status).isEqualTo(SpanStatus.UNSET);
    assertThat(span.attributes).containsEntry("error.type", "UNKNOWN_PROMPT")
        .containsEntry("rpc.response.status_code", "-32602")
        .containsEntry("jsonrpc.request.id", "p-1")
        .containsEntry("gen_ai.prompt.name", "nope")
        .containsEntry("mcpfusion.error.message", "The prompt \"nope\" does not exist.")
        .doesNotContainKey("gen_ai.tool.call.id");
    assertThat(tracer.spans.get(1).attributes).containsEntry("error.type", "-32021");
  }

  @Test
  void theResponseSizeIsWhatTheEdgeWroteAndTheOutputOnlyOnOptIn() {
    byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[],\"isError\":false}}"
        .getBytes(StandardCharsets.UTF_8);
    RequestTrace plain = tool();
    plain.replied(new Reply(List.of("ok"), Map.of(), null, false));
    plain.written(body, 0);
    plain.end();
    RequestTrace opted = SpanStart.tool(withOptions(tracer, TraceOptions.DEFAULT.withInputAndOutput()),
        "billing_get_invoice", Exposition.FLAT, "billing", "get_invoice", RequestContext.empty(), 7,
        Map.of("id", "INV-1"));
    opted.replied(new Reply(List.of("ok"), Map.of(), null, false));
    opted.written(body, 0);
    opted.end();

    assertThat(tracer.spans.get(0).attributes)
        .containsEntry("mcpfusion.response_size", (long) body.length)
        .containsEntry("jsonrpc.request.id", "7")
        .containsEntry("gen_ai.tool.call.id", "7")
        .doesNotContainKeys("input.value", "output.value");
    assertThat(tracer.spans.get(1).attributes)
        .containsEntry("input.value", "{\"id\":\"INV-1\"}")
        .containsEntry("input.mime_type", "application/json")
        .containsEntry("output.value", "{\"content\":[],\"isError\":false}")
        .containsEntry("output.mime_type", "application/json");
    assertThat(tracer.spans).allSatisfy(s -> assertThat(s.status).isEqualTo(SpanStatus.OK));
  }

  @Test
  void anErrorResponseCarriesNoOutput() {
    RequestTrace trace = SpanStart.resource(withOptions(tracer, TraceOptions.DEFAULT.withInputAndOutput()),
        "docs://pages/1", "docs://pages/{page}", "docs", RequestContext.empty(), 3);
    byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32003,\"message\":\"x\"}}"
        .getBytes(StandardCharsets.UTF_8);
    trace.rpcError(JsonRpc.SERVER_BUSY, "SERVER_BUSY", "x");
    trace.written(body, JsonRpc.SERVER_BUSY);
    trace.end();
    TracedPipelineTest.Recorded span = tracer.spans.get(0);
    assertThat(span.name).isEqualTo("resources/read docs://pages/{page}");
    assertThat(span.attributes).containsEntry("mcp.resource.uri", "docs://pages/1")
        .containsEntry("input.value", "docs://pages/1")
        .containsEntry("input.mime_type", "text/plain")
        .containsEntry("mcpfusion.response_size", (long) body.length)
        .doesNotContainKey("output.value");
  }
}
