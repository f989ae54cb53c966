package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The error bodies the edge writes, and the filter that keeps exception text out of SDK errors. */
class BodiesTest {
  private static Object parse(byte[] json) {
    return Json.parse(new String(json, StandardCharsets.UTF_8));
  }

  @Test
  void anErrorWithoutAUsableIdHasIdNull() {
    assertThat(new String(Bodies.error(null, -32700, "Parse error"), StandardCharsets.UTF_8))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
  }

  @Test
  void internalErrorLosesTheExceptionText() {
    byte[] cleaned = Bodies.sdkError(7, -32603,
        "Cannot deserialize value of type `io.modelcontextprotocol.spec.McpSchema$LoggingLevel`",
        Map.of("stackTrace", "at java.base/java.lang.Thread.run(Thread.java:840)"));
    assertThat(parse(cleaned)).isEqualTo(Json.parse(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}"));
  }

  @Test
  void leakyMessageOfAnotherCodeIsReplacedAndLeakyDataDropped() {
    byte[] cleaned = Bodies.sdkError(7, -32602, "java.lang.IllegalArgumentException: bad",
        Map.of("className", "x"));
    assertThat(parse(cleaned)).isEqualTo(Json.parse(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"Invalid params\"}}"));
  }

  @Test
  void cleanErrorsPassUnchanged() {
    byte[] kept = Bodies.sdkError("a", -32601, "Method not found: no/such", Map.of("method", "no/such"));
    assertThat(parse(kept)).isEqualTo(Json.parse("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32601,"
        + "\"message\":\"Method not found: no/such\",\"data\":{\"method\":\"no/such\"}}}"));
  }

  @Test
  void leakDetectionCatchesClassNamesFramesAndSerializedExceptions() {
    assertThat(Bodies.leaks("dev.mcpfusion.core.Foo failed")).isTrue();
    assertThat(Bodies.leaks("  at dev.x.Y.run(Y.java:1)")).isTrue();
    assertThat(Bodies.leaks("{\"localizedMessage\":\"boom\"}")).isTrue();
    assertThat(Bodies.leaks("The tool \"ops.echo\" does not exist.")).isFalse();
  }
}
