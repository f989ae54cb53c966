package dev.mcpfusion.core.trace.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The opt-in output of a span is the {@code result} member as written, found without parsing. */
class ResultMemberTest {
  @Test
  void theResultMemberIsFoundWhateverTheIdHolds() {
    String id = "\"result\\\":\"";
    byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"values\":[\"a\"]}}")
        .getBytes(StandardCharsets.UTF_8);
    assertThat(RequestTrace.resultMember(body)).isEqualTo("{\"values\":[\"a\"]}");
  }
}
