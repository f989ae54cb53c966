package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Later;
import dev.mcpfusion.http.fixtures.Ops;
import dev.mcpfusion.http.fixtures.RawHttp;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * EXPERIMENT (branch x/inline): the non-blocking front never lets one connection hold the selector
 * thread — not a body that arrives slowly, not a call that blocks.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SelectorFrontTest {
  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}";

  private final RawHttp raw = new RawHttp();
  private final Ops.OpsTools tools = new Ops.OpsTools();
  private FusionHttpServer running;
  private URI endpoint;

  @BeforeEach
  void start() {
    System.setProperty(System.getProperty("x.mode", "x.front"), "true");
    try {
      FusionServer server = FusionServer.builder("ops", "1.0.0")
          .register(Ops.OpsTools_Fusion.bind(tools))
          .context(Ops.Caller.class, Ops.Caller::from)
          .build();
      running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false)
          .shutdownGrace(Duration.ofSeconds(1)));
      endpoint = running.endpoint();
    } finally {
      System.clearProperty(System.getProperty("x.mode", "x.front"));
    }
  }

  @AfterEach
  void stop() {
    running.close();
  }

  @Test
  void aBodyThatArrivesInPiecesIsAnsweredWhenCompleteWhileOthersAreAnswered() throws Exception {
    String session = raw.open(endpoint);
    byte[] body = PING.getBytes(StandardCharsets.UTF_8);
    try (Socket slow = new Socket(endpoint.getHost(), endpoint.getPort())) {
      slow.setSoTimeout(20_000);
      OutputStream out = slow.getOutputStream();
      out.write(("POST " + endpoint.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1:" + endpoint.getPort()
          + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
          + "Mcp-Session-Id: " + session + "\r\nContent-Length: " + body.length + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, 10);
      out.flush();
      // While that body waits for its rest, every other connection is answered: the selector is free.
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> other = raw.send(endpoint, session, PING);
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(other.body()).contains("\"id\":9").contains("\"result\":{}");
      }
      out.write(body, 10, body.length - 10);
      out.flush();
      String answer = readAnswer(slow.getInputStream());
      assertThat(answer).startsWith("HTTP/1.1 200").contains("\"id\":9").contains("\"result\":{}");
    }
  }

  @Test
  void aCallThatBlocksIsHandedOffAndOtherConnectionsAreAnswered() throws Exception {
    String session = raw.open(endpoint);
    CompletableFuture<HttpResponse<String>> held = raw.client().sendAsync(RawHttp.post(endpoint, session,
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ops_slow\","
            + "\"arguments\":{\"millis\":3000}}}"), HttpResponse.BodyHandlers.ofString());
    assertThat(tools.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> other = raw.send(endpoint, session,
          "{\"jsonrpc\":\"2.0\",\"id\":" + (10 + i) + ",\"method\":\"tools/call\",\"params\":"
              + "{\"name\":\"ops_echo\",\"arguments\":{\"text\":\"hi\"}}}");
      assertThat(other.statusCode()).isEqualTo(200);
      assertThat(other.body()).contains("hi");
    }
    assertThat(held).isNotDone();
    assertThat(held.get(20, TimeUnit.SECONDS).body()).contains("slept 3000");
  }

  @Test
  void aClientThatDoesNotReadItsLargeReplyHoldsNoOneElse() throws Exception {
    String session = raw.open(endpoint);
    // ping echoes its id: a 3 MB id makes a 3 MB reply, far more than the socket buffers hold.
    String id = "\"" + "x".repeat(3 * 1024 * 1024) + "\"";
    byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}")
        .getBytes(StandardCharsets.UTF_8);
    try (Socket deaf = new Socket(endpoint.getHost(), endpoint.getPort())) {
      deaf.setReceiveBufferSize(4096);
      OutputStream out = deaf.getOutputStream();
      out.write(("POST " + endpoint.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1:" + endpoint.getPort()
          + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
          + "Mcp-Session-Id: " + session + "\r\nContent-Length: " + body.length + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      Thread.sleep(500);
      // Its reply sits unread; every other connection is still answered.
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> other = raw.send(endpoint, session, PING);
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(other.body()).contains("\"id\":9");
      }
      // Its start is there to read (the rest is not read: a 4 KB window makes 3 MB slow to drain).
      String start = new String(deaf.getInputStream().readNBytes(200), StandardCharsets.UTF_8);
      assertThat(start).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void anAsyncCallIsAnsweredOnTheThreadThatReadItAndASynchronousOneIsHandedOff() throws Exception {
    Later.LaterTools later = new Later.LaterTools();
    System.setProperty("x.front", "true");
    FusionHttpServer own;
    try {
      own = FusionHttp.serve(FusionServer.builder("later", "1.0.0")
          .register(new Later.LaterTools_Fusion(later)).build(),
          HttpOptions.port(0).stopOnShutdownSignal(false).shutdownGrace(Duration.ofSeconds(1)));
    } finally {
      System.clearProperty("x.front");
    }
    try {
      URI at = own.endpoint();
      String session = raw.open(at);
      assertThat(raw.send(at, session, call(3, "later_stage")).body()).contains("stage hi");
      assertThat(later.stageOnReader).isTrue();
      assertThat(raw.send(at, session, call(4, "later_plain")).body()).contains("plain hi");
      assertThat(later.plainOnReader).isFalse();
    } finally {
      own.close();
    }
  }

  private static String call(int id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":{\"text\":\"hi\"}}}";
  }

  /** Reads one HTTP/1.1 response with a Content-Length: its head and body as text. */
  private static String readAnswer(InputStream in) throws Exception {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      head.append((char) c);
    }
    String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
    int at = lower.indexOf("content-length:");
    int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf("\r\n", at)).trim());
    return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
