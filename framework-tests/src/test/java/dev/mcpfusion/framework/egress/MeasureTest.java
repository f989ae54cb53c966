package dev.mcpfusion.framework.egress;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The egress property measures a {@code tools/call} reply as docs/guide/limits.md defines the
 * byte cap's measure: {@code content}, {@code structuredContent} and {@code _meta} as written, the
 * envelope and the 2026-07-28 server name left out.
 */
class MeasureTest {
  private static final String COUNTED = "{\"content\":[{\"type\":\"text\",\"text\":\"é \\\"}] {\"}],"
      + "\"structuredContent\":{\"a\":[1,2.5e3,true,null]},\"_meta\":{\"mcpfusion/rules\":[\"r\"]}}";

  @Test
  void aClassicReplyCountsItsContentStructuredContentAndMeta() {
    String reply = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\","
        + "\"text\":\"é \\\"}] {\"}],\"isError\":false,\"structuredContent\":{\"a\":[1,2.5e3,true,null]},"
        + "\"_meta\":{\"mcpfusion/rules\":[\"r\"]}}}";
    assertThat(Channels.measured(received(reply))).isEqualTo(bytes(COUNTED));
  }

  @Test
  void aModernReplyLeavesOutTheServerName() {
    String reply = "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{\"content\":[{\"type\":\"text\","
        + "\"text\":\"é \\\"}] {\"}],\"structuredContent\":{\"a\":[1,2.5e3,true,null]},"
        + "\"isError\":false,\"resultType\":\"complete\",\"_meta\":{\"mcpfusion/rules\":[\"r\"],"
        + "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"vault\",\"version\":\"1.0.0\"}}}}";
    assertThat(Channels.measured(received(reply))).isEqualTo(bytes(COUNTED));
  }

  @Test
  void aMetaWithOnlyTheServerNameIsFraming() {
    String reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[],\"isError\":true,"
        + "\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
        + "{\"name\":\"vault\",\"version\":\"1.0.0\"}}}}";
    assertThat(Channels.measured(received(reply))).isEqualTo(bytes("{\"content\":[]}"));
  }

  @Test
  void aJsonRpcErrorCarriesNoResult() {
    String reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"no\"}}";
    assertThat(Channels.measured(received(reply))).isZero();
  }

  private static Received received(String json) {
    return new Received("test", json, json);
  }

  private static long bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
