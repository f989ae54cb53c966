package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpJsonTest {
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};
  private final McpJsonMapper mapper = McpJson.newMapper();

  @Test
  void decimalsAreReadAsBigDecimal() throws IOException {
    assertThat(mapper.readValue("{\"a\":0.1}", MAP).get("a")).isEqualTo(new BigDecimal("0.1"));
    McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(mapper,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"x\":1.10}}}");
    Object params = ((McpSchema.JSONRPCRequest) message).params();
    McpSchema.CallToolRequest call = mapper.convertValue(params, McpSchema.CallToolRequest.class);
    assertThat(call.arguments().get("x")).isEqualTo(new BigDecimal("1.10"));
  }

  @Test
  void duplicateKeysTrailingTokensAndNonFiniteNumbersAreRejected() {
    assertThatThrownBy(() -> mapper.readValue("{\"a\":1,\"a\":2}", MAP)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> mapper.readValue("{\"a\":1} {}", MAP)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> mapper.readValue("{\"a\":NaN}", MAP)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> mapper.writeValueAsString(Map.of("a", Double.NaN)))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> mapper.writeValueAsString(Map.of("a", Float.POSITIVE_INFINITY)))
        .isInstanceOf(IOException.class);
  }

  @Test
  void finiteNumbersAreWrittenAsUsual() throws IOException {
    assertThat(mapper.writeValueAsString(Map.of("a", 1.5d))).isEqualTo("{\"a\":1.5}");
    assertThat(mapper.writeValueAsString(Map.of("a", 2.5f))).isEqualTo("{\"a\":2.5}");
  }
}
