package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The filter on the SDK session's own JSON-RPC errors. */
class ErrorBodiesTest {
  private static McpSchema.JSONRPCResponse error(int code, String message, Object data) {
    return McpSchema.JSONRPCResponse.error(7, new McpSchema.JSONRPCResponse.JSONRPCError(code, message, data));
  }

  @Test
  void internalErrorLosesTheExceptionText() {
    McpSchema.JSONRPCResponse cleaned = ErrorBodies.clean(error(-32603,
        "Cannot deserialize value of type `io.modelcontextprotocol.spec.McpSchema$LoggingLevel`",
        Map.of("stackTrace", "at java.base/java.lang.Thread.run(Thread.java:840)")), "{\"stackTrace\":\"x\"}");
    assertThat(cleaned.id()).isEqualTo(7);
    assertThat(cleaned.error().code()).isEqualTo(-32603);
    assertThat(cleaned.error().message()).isEqualTo("Internal error");
    assertThat(cleaned.error().data()).isNull();
  }

  @Test
  void leakyMessageOfAnotherCodeIsReplacedAndLeakyDataDropped() {
    McpSchema.JSONRPCResponse cleaned = ErrorBodies.clean(error(-32602,
        "java.lang.IllegalArgumentException: bad", Map.of("className", "x")),
        "{\"className\":\"x\"}");
    assertThat(cleaned.error().message()).isEqualTo("Invalid params");
    assertThat(cleaned.error().data()).isNull();
  }

  @Test
  void cleanErrorsPassUnchanged() {
    McpSchema.JSONRPCResponse original = error(-32601, "Method not found: no/such", Map.of("method", "no/such"));
    assertThat(ErrorBodies.clean(original, "{\"method\":\"no/such\"}")).isSameAs(original);
  }

  @Test
  void leakDetectionCatchesClassNamesFramesAndSerializedExceptions() {
    assertThat(ErrorBodies.leaks("dev.mcpfusion.core.Foo failed")).isTrue();
    assertThat(ErrorBodies.leaks("  at dev.x.Y.run(Y.java:1)")).isTrue();
    assertThat(ErrorBodies.leaks("{\"localizedMessage\":\"boom\"}")).isTrue();
    assertThat(ErrorBodies.leaks("The tool \"ops.echo\" does not exist.")).isFalse();
  }
}
