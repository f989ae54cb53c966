package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/** The edge's lifecycle and never-silent rules over a real stdio stream (raw lines). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StdioEdgeRulesTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  private final Pipe toServer = new Pipe();
  private final Pipe fromServer = new Pipe();
  private FusionServer server;
  private BufferedReader reader;
  private Thread serving;

  @BeforeEach
  void start() {
    server = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_1"))
        .build();
    serving = PipedStdio.serve(server, toServer, fromServer, "edge-rules-stdio");
    reader = new BufferedReader(new InputStreamReader(fromServer.in, StandardCharsets.UTF_8));
  }

  @AfterEach
  void stop() throws InterruptedException {
    toServer.out.close();
    serving.join(10_000);
  }

  private void send(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    toServer.out.write(bytes, 0, bytes.length);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> read() throws IOException {
    String line = reader.readLine();
    assertThat(line).isNotNull();
    return JSON.readValue(line, Map.class);
  }

  private static String call(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0001\"}}}";
  }

  private static Map<?, ?> error(Map<String, Object> reply) {
    return (Map<?, ?>) reply.get("error");
  }

  @Test
  void aToolCallBeforeInitializeIsAnsweredAtOnce() throws IOException {
    send(call(3));
    Map<String, Object> reply = read();
    assertThat(reply.get("id")).isEqualTo(3);
    assertThat(error(reply).get("code")).isEqualTo(-32600);
    assertThat((String) error(reply).get("message")).contains("send initialize first");
  }

  @Test
  void aToolCallBeforeNotificationsInitializedIsServed() throws IOException {
    send(INIT);
    assertThat(read().get("id")).isEqualTo(1);
    send(call(2));
    Map<String, Object> reply = read();
    assertThat(reply.get("id")).isEqualTo(2);
    assertThat(((Map<?, ?>) reply.get("result")).get("isError")).isEqualTo(false);
  }

  @Test
  void aTenMebibyteLineWithItsIdFirstIsAnsweredWithThatId() throws IOException {
    String big = "{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"billing_get_invoice\","
        + "\"arguments\":{\"id\":\"" + "x".repeat(10 * 1024 * 1024) + "\"}}}";
    send(big);
    Map<String, Object> reply = read();
    assertThat(reply.get("id")).isEqualTo(7);
    assertThat(error(reply).get("code")).isEqualTo(-32600);
    assertThat((String) error(reply).get("message")).contains("larger than");
    send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
    assertThat(read().get("id")).isEqualTo(8); // the stream goes on
  }

  @Test
  void aResultThatCannotBeWrittenIsAnInternalErrorForItsIdLoggedOnceWithNoTextOnTheWire()
      throws IOException {
    server.edge().resultWriter((id, reply, modern) -> {
      throw new IllegalStateException("SECRET-DETAIL cannot write");
    });
    try (StderrLog log = StderrLog.capture()) {
      send(INIT);
      read();
      send(call(4));
      String line = reader.readLine();
      Map<String, Object> reply = JSON.readValue(line, Map.class);
      assertThat(reply.get("id")).isEqualTo(4);
      assertThat(error(reply).get("code")).isEqualTo(-32603);
      assertThat(line).doesNotContain("SECRET-DETAIL").doesNotContain("IllegalStateException");
      assertThat(log.events()).hasSize(1);
    }
  }

  @Test
  void callsReadJustBeforeEndOfInputAreStillAnswered() throws Exception {
    send(INIT);
    read();
    for (int id = 100; id < 120; id++) {
      send(call(id));
    }
    toServer.out.close(); // end of input right behind the calls
    java.util.Set<Object> answered = new java.util.HashSet<>();
    String line;
    while ((line = reader.readLine()) != null) {
      answered.add(JSON.readValue(line, Map.class).get("id"));
    }
    serving.join(10_000);
    assertThat(answered).hasSize(20);
  }
}
