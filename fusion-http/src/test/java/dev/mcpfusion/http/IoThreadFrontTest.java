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
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpOptions#answerOnIoThread(boolean)}: what never waits is answered on the thread that
 * read it, and nothing lets one connection hold that thread — not a body that arrives slowly, not a
 * call that blocks, not a client that does not read its reply. Each of the first three waits
 * forever, or times out, when the servlet runs on that thread for every request.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IoThreadFrontTest {
  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}";
  private static final HttpOptions OPTIONS = HttpOptions.port(0).answerOnIoThread(true)
      .stopOnShutdownSignal(false).shutdownGrace(Duration.ofSeconds(1));

  private final RawHttp raw = new RawHttp();
  private final Ops.OpsTools tools = new Ops.OpsTools();
  private FusionHttpServer running;
  private URI endpoint;

  @BeforeEach
  void start() {
    FusionServer server = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(tools))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    running = FusionHttp.serve(server, OPTIONS);
    endpoint = running.endpoint();
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
      out.write(head(session, "Content-Length: " + body.length));
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
      out.write(head(session, "Content-Length: " + body.length));
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
  void callsThatNeverWaitRunOnTheThreadThatReadThemAndTheRestAreHandedOff() throws Exception {
    Later.LaterTools later = new Later.LaterTools();
    try (FusionHttpServer own = FusionHttp.serve(laterServer(later), OPTIONS)) {
      URI at = own.endpoint();
      String session = raw.open(at);
      assertThat(raw.send(at, session, call(3, "later_stage")).body()).contains("stage hi");
      assertThat(later.stageOnReader).as("an async action").isTrue();
      assertThat(raw.send(at, session, call(4, "later_quick")).body()).contains("quick hi");
      assertThat(later.quickOnReader).as("a @NonBlocking action").isTrue();
      assertThat(raw.send(at, session, call(5, "later_plain")).body()).contains("plain hi");
      assertThat(later.plainOnReader).as("a plain action").isFalse();
      assertThat(raw.send(at, session, call(6, "later_queued")).body()).contains("queued hi");
      assertThat(later.queuedOnReader).as("@NonBlocking behind a @SerializeOn queue").isFalse();
      assertThat(raw.send(at, session, call(7, "later_timed")).body()).contains("timed hi");
      assertThat(later.timedOnReader).as("@NonBlocking with a deadline").isFalse();
      HttpResponse<Void> closed = raw.client().send(HttpRequest.newBuilder(at)
          .header("Mcp-Session-Id", session).DELETE().build(), HttpResponse.BodyHandlers.discarding());
      assertThat(closed.statusCode()).as("a DELETE, handed to the pool").isBetween(200, 204);
    }
  }

  @Test
  void everyCallIsHandedOffWhereAStoreOrTheAuthenticatorMayWait() throws Exception {
    EventStore remote = new EventStore() {
      private final EventStore kept = EventStore.inMemory();

      @Override
      public void append(StoredEvent event) {
        kept.append(event);
      }

      @Override
      public Optional<List<StoredEvent>> eventsFrom(String sessionId,
          String streamId, long sequence) {
        return kept.eventsFrom(sessionId, streamId, sequence);
      }

      @Override
      public void forget(String sessionId) {
        kept.forget(sessionId);
      }
    };
    Later.LaterTools later = new Later.LaterTools();
    try (FusionHttpServer own = FusionHttp.serve(laterServer(later), OPTIONS.eventStore(remote))) {
      URI at = own.endpoint();
      String session = raw.open(at);
      assertThat(raw.send(at, session, call(3, "later_stage")).body()).contains("stage hi");
      assertThat(raw.send(at, session, call(4, "later_quick")).body()).contains("quick hi");
      assertThat(later.stageOnReader || later.quickOnReader).isFalse();
    }
    Later.LaterTools guarded = new Later.LaterTools();
    try (FusionHttpServer own = FusionHttp.serve(laterServer(guarded),
        OPTIONS.auth(HttpAuthenticator.bearer("s3cret")))) {
      URI at = own.endpoint();
      String session = authorised(RawHttp.post(at, null, RawHttp.INIT)).headers()
          .firstValue("Mcp-Session-Id").orElseThrow();
      assertThat(authorised(RawHttp.post(at, session, call(4, "later_quick"))).body())
          .contains("quick hi");
      assertThat(guarded.quickOnReader).isFalse();
    }
  }

  @Test
  void everyCallIsHandedOffOnAServerWithATaskAction() throws Exception {
    Later.LaterTools later = new Later.LaterTools();
    FusionServer server = FusionServer.builder("later", "1.0.0")
        .register(new Later.LaterTools_Fusion(later))
        .register(new Later.TaskedTools_Fusion())
        .build();
    try (FusionHttpServer own = FusionHttp.serve(server, OPTIONS)) {
      URI at = own.endpoint();
      String session = raw.open(at);
      assertThat(raw.send(at, session, call(4, "later_quick")).body()).contains("quick hi");
      assertThat(later.quickOnReader).isFalse();
    }
  }

  @Test
  void aBodyOfUnknownLengthOrOverTheCapIsAnsweredFromThePool() throws Exception {
    String session = raw.open(endpoint);
    byte[] body = PING.getBytes(StandardCharsets.UTF_8);
    try (Socket chunked = new Socket(endpoint.getHost(), endpoint.getPort())) {
      chunked.setSoTimeout(20_000);
      OutputStream out = chunked.getOutputStream();
      out.write(head(session, "Transfer-Encoding: chunked"));
      out.write((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readAnswer(chunked.getInputStream())).startsWith("HTTP/1.1 200")
          .contains("\"id\":9");
    }
    try (FusionHttpServer small = FusionHttp.serve(laterServer(new Later.LaterTools()),
        OPTIONS.maxBodyBytes(64))) {
      URI at = small.endpoint();
      HttpResponse<String> tooBig = raw.send(at, null, RawHttp.INIT);
      assertThat(tooBig.statusCode()).isEqualTo(413);
    }
  }

  @Test
  void theOptionIsOffByDefault() throws Exception {
    assertThat(HttpOptions.defaults().answerOnIoThread()).isFalse();
    assertThat(HttpOptions.defaults().answerOnIoThread(true).withPort(0).answerOnIoThread()).isTrue();
    Later.LaterTools later = new Later.LaterTools();
    try (FusionHttpServer own = FusionHttp.serve(laterServer(later),
        HttpOptions.port(0).stopOnShutdownSignal(false).shutdownGrace(Duration.ofSeconds(1)))) {
      URI at = own.endpoint();
      String session = raw.open(at);
      assertThat(raw.send(at, session, call(4, "later_quick")).body()).contains("quick hi");
      assertThat(later.quickOnReader).isFalse();
    }
  }

  private HttpResponse<String> authorised(HttpRequest request) throws Exception {
    return raw.client().send(HttpRequest.newBuilder(request, (name, value) -> true)
        .header("Authorization", "Bearer s3cret").build(), HttpResponse.BodyHandlers.ofString());
  }

  private static FusionServer laterServer(Later.LaterTools later) {
    return FusionServer.builder("later", "1.0.0").register(new Later.LaterTools_Fusion(later))
        .build();
  }

  private static String call(int id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":{\"text\":\"hi\"}}}";
  }

  /** A POST's request line and headers in {@code session}, its body framed by {@code framing}. */
  private byte[] head(String session, String framing) {
    return ("POST " + endpoint.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1:" + endpoint.getPort()
        + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        + "Mcp-Session-Id: " + session + "\r\n" + framing + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
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
