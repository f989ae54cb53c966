package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.http.fixtures.Ops;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The edge's lifecycle and never-silent rules over Streamable HTTP (raw requests on loopback). */
class EdgeRulesHttpTest {
  private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private FusionServer fusion;
  private FusionHttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void start() {
    fusion = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    server = FusionHttp.serve(fusion, HttpOptions.port(0).stopOnShutdownSignal(false));
  }

  private HttpResponse<String> post(String session, String body) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(server.endpoint())
        .timeout(Duration.ofSeconds(30))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      builder.header("Mcp-Session-Id", session);
    }
    return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String initializeOnly() throws Exception {
    HttpResponse<String> init = post(null, INIT);
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private static String echo(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"}}}";
  }

  private static Map<?, ?> body(HttpResponse<String> response) {
    return (Map<?, ?>) Json.parse(response.body());
  }

  @Test
  void aToolCallBeforeInitializeIsAnsweredAtOnce() throws Exception {
    start();
    HttpResponse<String> response = post(null, echo(1));
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(body(response).get("id")).isEqualTo(1L);
    assertThat((String) ((Map<?, ?>) body(response).get("error")).get("message"))
        .contains("send initialize first");
  }

  @Test
  void aToolCallBeforeNotificationsInitializedIsServed() throws Exception {
    start();
    String session = initializeOnly();
    HttpResponse<String> response = post(session, echo(2));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(body(response).get("id")).isEqualTo(2L);
    assertThat(((Map<?, ?>) body(response).get("result")).get("isError")).isEqualTo(false);
  }

  @Test
  void aTenMebibyteBodyWithItsIdFirstIsAnsweredWithThatId() throws Exception {
    start();
    String session = initializeOnly();
    String big = "{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"ops_echo\","
        + "\"arguments\":{\"text\":\"" + "x".repeat(10 * 1024 * 1024) + "\"}}}";
    HttpResponse<String> response = post(session, big);
    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(body(response).get("id")).isEqualTo(7L);
    assertThat(((Map<?, ?>) body(response).get("error")).get("code")).isEqualTo(-32600L);
  }

  @Test
  void aResultThatCannotBeWrittenIsAnInternalErrorForItsIdLoggedOnceWithNoTextOnTheWire()
      throws Exception {
    start();
    EdgeHooks.failResultWriting(fusion.edge(), new IllegalStateException("SECRET-DETAIL cannot write"));
    String session = initializeOnly();
    PrintStream original = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    HttpResponse<String> response;
    try {
      response = post(session, echo(4));
    } finally {
      System.setErr(original);
    }
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(body(response).get("id")).isEqualTo(4L);
    assertThat(((Map<?, ?>) body(response).get("error")).get("code")).isEqualTo(-32603L);
    assertThat(response.body()).doesNotContain("SECRET-DETAIL").doesNotContain("IllegalStateException");
    // slf4j-simple prints each event as one line starting with its thread and level.
    assertThat(log.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.matches("^\\[[^\\]]*\\] (WARN|ERROR) .*"))).hasSize(1);
  }
}
