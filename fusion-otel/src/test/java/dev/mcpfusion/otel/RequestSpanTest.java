package dev.mcpfusion.otel;

import static dev.mcpfusion.otel.OtelHarness.attr;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.otel.fixtures.Ops;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.ToolResult;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One span per {@code prompts/get}, {@code resources/read} and {@code completion/complete}, as per
 * {@code tools/call}: its name, its attributes in the OTel MCP/GenAI and OpenInference dialects, its
 * parent and its status; the request ids on every span, and the opt-in input and output.
 */
class RequestSpanTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN_ID = "00f067aa0ba902b7";
  private static final String PARENT = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";

  private final OtelHarness harness = new OtelHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  /**
   * One row per request and outcome.
   *
   * @param method the JSON-RPC method, also the span name's first word
   * @param send the request, through the tester
   * @param spanName the expected name
   * @param attributes attributes the span must carry (besides the common ones)
   * @param kind the OpenInference span kind
   * @param status the expected status
   * @param errorType the expected {@code error.type}, {@code null} on success
   * @param rpcCode the expected {@code rpc.response.status_code}, {@code null} for a result
   */
  record Case(String name, String method, Function<FusionTester, McpResponse> send,
      String spanName, Map<String, String> attributes, String kind, StatusCode status,
      String errorType, String rpcCode) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("prompt", "prompts/get", t -> t.getPrompt("brief", Map.of("topic", "ops")),
            "prompts/get brief", Map.of("gen_ai.prompt.name", "brief", "mcpfusion.router", "ops"),
            "PROMPT", StatusCode.OK, null, null),
        new Case("prompt, FusionError", "prompts/get", t -> t.getPrompt("brief", Map.of("topic", "none")),
            "prompts/get brief", Map.of("gen_ai.prompt.name", "brief"), "PROMPT", StatusCode.UNSET,
            "NOT_FOUND", "-32602"),
        new Case("prompt, missing argument", "prompts/get", t -> t.getPrompt("brief", Map.of()),
            "prompts/get brief", Map.of("gen_ai.prompt.name", "brief"), "PROMPT", StatusCode.UNSET,
            "VALIDATION_ERROR", "-32602"),
        new Case("prompt, unexpected exception", "prompts/get",
            t -> t.getPrompt("brief", Map.of("topic", "boom")), "prompts/get brief",
            Map.of("gen_ai.prompt.name", "brief"), "PROMPT", StatusCode.ERROR, "INTERNAL_ERROR",
            "-32603"),
        new Case("unknown prompt", "prompts/get", t -> t.getPrompt("nope", Map.of()),
            "prompts/get nope", Map.of("gen_ai.prompt.name", "nope"), "PROMPT", StatusCode.UNSET,
            "UNKNOWN_PROMPT", "-32602"),
        new Case("static resource", "resources/read", t -> t.readResource("ops://readme"),
            "resources/read ops://readme", Map.of("mcp.resource.uri", "ops://readme",
                "mcpfusion.router", "ops"), "RETRIEVER", StatusCode.OK, null, null),
        new Case("templated resource", "resources/read", t -> t.readResource("ops://items/ITM-7"),
            "resources/read ops://items/{id}", Map.of("mcp.resource.uri", "ops://items/ITM-7"),
            "RETRIEVER", StatusCode.OK, null, null),
        new Case("resource, FusionError", "resources/read", t -> t.readResource("ops://items/ITM-404"),
            "resources/read ops://items/{id}", Map.of("mcp.resource.uri", "ops://items/ITM-404"),
            "RETRIEVER", StatusCode.UNSET, "NOT_FOUND", "-32002"),
        new Case("unknown resource", "resources/read", t -> t.readResource("ops://nothing/here"),
            "resources/read", Map.of("mcp.resource.uri", "ops://nothing/here"), "RETRIEVER",
            StatusCode.UNSET, "UNKNOWN_RESOURCE", "-32002"),
        new Case("prompt completion", "completion/complete", t -> t.complete("brief", "topic", "o"),
            "completion/complete brief", Map.of("gen_ai.prompt.name", "brief",
                "mcpfusion.router", "ops"), "CHAIN", StatusCode.OK, null, null),
        new Case("template completion", "completion/complete",
            t -> t.completeResource("ops://items/{id}", "id", "ITM"),
            "completion/complete ops://items/{id}", Map.of("mcp.resource.uri", "ops://items/{id}"),
            "CHAIN", StatusCode.OK, null, null),
        new Case("completion of an unknown argument", "completion/complete",
            t -> t.complete("brief", "tone", ""), "completion/complete brief",
            Map.of("gen_ai.prompt.name", "brief"), "CHAIN", StatusCode.UNSET, "UNKNOWN_ARGUMENT",
            "-32602"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void oneSpanPerRequestWithItsNameAttributesAndStatus(Case c) {
    McpResponse response = c.send().apply(harness.withFeatures(TraceOptions.DEFAULT));

    SpanData span = harness.onlySpan(c.method());
    assertThat(span.getName()).isEqualTo(c.spanName());
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(span.getParentSpanContext().isValid()).as("no parent sent: a root span").isFalse();
    assertThat(attr(span, "mcp.method.name")).isEqualTo(c.method());
    c.attributes().forEach((key, value) -> assertThat(attr(span, key)).as(key).isEqualTo(value));
    assertThat(attr(span, "openinference.span.kind")).isEqualTo(c.kind());
    assertThat(attr(span, "jsonrpc.request.id")).isEqualTo(id(response.raw()));
    assertThat(attr(span, "mcp.protocol.version")).isNotBlank();
    // The GenAI tool attributes belong to tool calls only.
    assertThat(attr(span, "gen_ai.operation.name")).isNull();
    assertThat(attr(span, "gen_ai.tool.name")).isNull();
    assertThat(attr(span, "gen_ai.tool.call.id")).isNull();
    assertThat(span.getAttributes().get(AttributeKey.longKey("mcpfusion.response_size")))
        .isEqualTo((long) response.raw().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    assertThat(span.getAttributes().get(AttributeKey.doubleKey("mcpfusion.duration_ms"))).isNotNull();

    assertThat(span.getStatus().getStatusCode()).isEqualTo(c.status());
    assertThat(span.getStatus().getDescription()).isEmpty();
    assertThat(attr(span, "error.type")).isEqualTo(c.errorType());
    assertThat(attr(span, "rpc.response.status_code")).isEqualTo(c.rpcCode());
    assertThat(response.isError()).isEqualTo(c.errorType() != null);
    if (c.status() == StatusCode.ERROR) {
      EventData event = span.getEvents().get(0);
      assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.type")))
          .isEqualTo(IllegalStateException.class.getName());
      assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message"))).isNull();
      assertThat(attr(span, "mcpfusion.incident")).isNotNull()
          .isEqualTo(((Map<?, ?>) response.errorData()).get("incident"));
    } else {
      assertThat(span.getEvents()).isEmpty();
    }
    if (c.status() == StatusCode.UNSET) {
      assertThat(attr(span, "mcpfusion.error.message")).isNotBlank();
    }
    assertThat(OtelHarness.allValues(span)).noneMatch(v -> v != null && v.contains(Ops.EXCEPTION_TEXT));
    assertThat(attr(span, "input.value")).as("no input unless opted in").isNull();
    assertThat(attr(span, "output.value")).as("no output unless opted in").isNull();
    assertThat(harness.leaks).isEmpty();
  }

  @Test
  void inTheStatelessEraEveryRequestGetsItsSpanToo() {
    FusionTester tester = harness.withFeatures(TraceOptions.DEFAULT).protocolVersion(FusionTester.MODERN);
    tester.getPrompt("brief", Map.of("topic", "ops"));
    tester.readResource("ops://items/ITM-7");
    tester.complete("brief", "topic", "b");
    assertThat(harness.onlySpan("prompts/get").getName()).isEqualTo("prompts/get brief");
    assertThat(harness.onlySpan("resources/read").getName()).isEqualTo("resources/read ops://items/{id}");
    assertThat(harness.onlySpan("completion/complete").getName()).isEqualTo("completion/complete brief");
    for (String method : List.of("prompts/get", "resources/read", "completion/complete")) {
      SpanData span = harness.onlySpan(method);
      assertThat(attr(span, "mcp.protocol.version")).isEqualTo(FusionTester.MODERN);
      assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.OK);
    }
  }

  @Test
  void aSpanCreatedInAPromptHandlerIsAChildOfThePromptSpan() {
    harness.withFeatures(TraceOptions.DEFAULT).getPrompt("brief", Map.of("topic", "child"));
    SpanData prompt = harness.onlySpan("prompts/get");
    SpanData child = harness.exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals("briefs.child-work")).findFirst().orElseThrow();
    assertThat(child.getTraceId()).isEqualTo(prompt.getTraceId());
    assertThat(child.getParentSpanId()).isEqualTo(prompt.getSpanId());
    assertThat(harness.leaks).isEmpty();
  }

  @Test
  void theMetaTraceparentIsTheParentOfEveryFeatureSpan() {
    FusionTester tester = harness.withFeatures(TraceOptions.DEFAULT);
    Map<String, Object> meta = Map.of("traceparent", PARENT);
    tester.request("prompts/get", Map.of("name", "brief", "arguments", Map.of("topic", "ops"),
        "_meta", meta));
    tester.request("resources/read", Map.of("uri", "ops://readme", "_meta", meta));
    tester.request("completion/complete", Map.of("ref", Map.of("type", "ref/prompt", "name", "brief"),
        "argument", Map.of("name", "topic", "value", ""), "_meta", meta));
    for (String method : List.of("prompts/get", "resources/read", "completion/complete")) {
      SpanData span = harness.onlySpan(method);
      assertThat(span.getTraceId()).as(method).isEqualTo(TRACE_ID);
      assertThat(span.getParentSpanId()).as(method).isEqualTo(SPAN_ID);
      assertThat(span.getParentSpanContext().isRemote()).isTrue();
    }
  }

  @Test
  void aToolSpanCarriesTheRequestIdAsTheJsonRpcIdAndTheToolCallId() {
    FusionTester tester = harness.withFeatures(TraceOptions.DEFAULT);
    ToolResult ok = tester.callTool("ops_get_item", Map.of("id", "ITM-1"));
    ToolResult unknown = tester.callTool("ops_nope", Map.of());
    List<SpanData> spans = harness.spans("tools/call");
    assertThat(spans).hasSize(2);
    assertThat(attr(spans.get(0), "jsonrpc.request.id")).isEqualTo(id(ok.raw()));
    assertThat(attr(spans.get(0), "gen_ai.tool.call.id")).isEqualTo(id(ok.raw()));
    assertThat(attr(spans.get(1), "jsonrpc.request.id")).isEqualTo(id(unknown.raw()));
    assertThat(attr(spans.get(1), "gen_ai.tool.call.id")).isEqualTo(id(unknown.raw()));
    assertThat(attr(spans.get(1), "rpc.response.status_code")).isEqualTo("-32602");
    assertThat(attr(spans.get(0), "rpc.response.status_code")).isNull();
  }

  @Test
  void inputAndOutputAreRecordedOnlyWhenOptedInAndTheOutputIsWhatTheClientRead() {
    FusionTester tester = harness.withFeatures(TraceOptions.DEFAULT.withInputAndOutput());
    ToolResult tool = tester.callTool("ops_get_item", Map.of("id", "ITM-1"));
    McpResponse prompt = tester.getPrompt("brief", Map.of("topic", "ops"));
    McpResponse resource = tester.readResource("ops://items/ITM-7");
    McpResponse completion = tester.complete("brief", "topic", "o");
    McpResponse failed = tester.getPrompt("brief", Map.of("topic", "none"));

    SpanData toolSpan = harness.onlySpan("tools/call");
    assertThat(attr(toolSpan, "input.value")).isEqualTo("{\"id\":\"ITM-1\"}");
    assertThat(attr(toolSpan, "input.mime_type")).isEqualTo("application/json");
    assertThat(attr(toolSpan, "output.value")).isEqualTo(result(tool.raw()));
    assertThat(attr(toolSpan, "output.mime_type")).isEqualTo("application/json");

    List<SpanData> prompts = harness.spans("prompts/get");
    assertThat(attr(prompts.get(0), "input.value")).isEqualTo("{\"topic\":\"ops\"}");
    assertThat(attr(prompts.get(0), "output.value")).isEqualTo(result(prompt.raw()))
        .startsWith("{\"description\":\"Write a brief\",\"messages\":[")
        .contains("Write a brief about ops.");
    // A JSON-RPC error has no result: no output.
    assertThat(failed.isError()).isTrue();
    assertThat(attr(prompts.get(1), "output.value")).isNull();

    SpanData read = harness.onlySpan("resources/read");
    assertThat(attr(read, "input.value")).isEqualTo("ops://items/ITM-7");
    assertThat(attr(read, "input.mime_type")).isEqualTo("text/plain");
    assertThat(attr(read, "output.value")).isEqualTo(result(resource.raw()));

    SpanData complete = harness.onlySpan("completion/complete");
    assertThat(attr(complete, "input.value")).startsWith("{\"argument\":{")
        .contains("\"name\":\"topic\"").contains("\"value\":\"o\"").doesNotContain("context");
    assertThat(attr(complete, "output.value")).isEqualTo(result(completion.raw()));
  }

  @Test
  void theOutputIsTheRedactedReplyNeverTheHandlersReturn() {
    String card = "4111111111111111";
    FusionTester tester = harness.withFeatures(
        FusionServer.builder("ops", "1").redact(Redaction.detecting(Detector.CARD)),
        TraceOptions.DEFAULT.withInputAndOutput());
    ToolResult r = tester.callTool("ops_get_item", Map.of("id", "ITM-" + card));

    // The handler returned the card in clear (its name repeats the id); the client read it masked.
    assertThat(r.raw()).doesNotContain(card);
    SpanData span = harness.onlySpan("tools/call");
    assertThat(attr(span, "output.value")).isEqualTo(result(r.raw())).doesNotContain(card)
        .contains("Item ITM-");
    // The input is the client's own, as it sent it.
    assertThat(attr(span, "input.value")).contains(card);
  }

  /** The id of a JSON-RPC response (the tester's ids are numbers). */
  private static String id(String raw) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\{\"jsonrpc\":\"2\\.0\",\"id\":(\\d+),")
        .matcher(raw);
    assertThat(m.find()).as(raw).isTrue();
    return m.group(1);
  }

  /** The {@code result} member of a JSON-RPC response as the client received it. */
  private static String result(String raw) {
    String prefix = "{\"jsonrpc\":\"2.0\",\"id\":" + id(raw) + ",\"result\":";
    assertThat(raw).startsWith(prefix).endsWith("}");
    return raw.substring(prefix.length(), raw.length() - 1);
  }
}
