package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code network.transport} as the MCP conventions name it, from the transport a message came over. */
class NetworkTransportTest {
  @Test
  void stdioIsPipeHttpIsTcpAndInMemoryHasNone() {
    assertThat(Inbound.stdio().networkTransport()).isEqualTo("pipe");
    assertThat(Inbound.of("http", Map.of()).networkTransport()).isEqualTo("tcp");
    assertThat(Inbound.flat("http", new java.util.HashMap<>()).networkTransport()).isEqualTo("tcp");
    assertThat(Inbound.inProcess().networkTransport()).isNull();
  }
}
