package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.http.fixtures.Ops;
import dev.mcpfusion.http.fixtures.Steps;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A GET event stream whose client goes away without DELETE: the heartbeat finds it gone, the
 * stream is released (the socket closed, not left in CLOSE-WAIT), and the session idles out and
 * frees its place under {@link HttpOptions#maxSessions}. A live stream reads a heartbeat comment
 * at every interval. Every wait is a poll with a bound, never a fixed sleep.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AbandonedEventStreamTest {
  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
      + "\"params\":{\"protocolVersion\":\"" + ProtocolVersions.LATEST_CLASSIC + "\",\"capabilities\":{},"
      + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  /** Generous beside the intervals below, so a busy machine cannot fail the test. */
  private static final Duration BOUND = Duration.ofSeconds(20);
  /**
   * The idle limit of the tests where a session idles out: long enough that a busy machine never
   * idles a session out between its initialize and its GET, short beside {@link #BOUND}.
   */
  private static final Duration IDLE = Duration.ofSeconds(2);

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> post(String url, String session, String body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static FusionServer server() {
    return FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
  }

  /** Opens the session's GET event stream on a raw socket and reads its response headers. */
  private static Socket openStream(int port, String session) throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout((int) BOUND.toMillis());
    OutputStream out = socket.getOutputStream();
    out.write(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: text/event-stream\r\n"
        + "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: " + ProtocolVersions.LATEST_CLASSIC
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String headers = readUntil(socket.getInputStream(), "\r\n\r\n", 1);
    assertThat(headers).startsWith("HTTP/1.1 200").containsIgnoringCase("text/event-stream");
    return socket;
  }

  /** Reads until {@code marker} has been read {@code times} times; what was read. */
  private static String readUntil(InputStream in, String marker, int times) throws IOException {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    int seen = 0;
    int from = 0;
    while (seen < times) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the stream ended after " + read.toString(StandardCharsets.UTF_8));
      }
      read.write(b);
      String text = read.toString(StandardCharsets.UTF_8);
      int at = text.indexOf(marker, from);
      if (at >= 0) {
        seen++;
        from = at + marker.length();
      }
    }
    return read.toString(StandardCharsets.UTF_8);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("%s within %s", what, BOUND).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  void aLiveStreamReadsAHeartbeatAtEveryInterval() throws Exception {
    try (FusionHttpServer running = FusionHttp.serve(server(), HttpOptions.port(0)
        .stopOnShutdownSignal(false).heartbeatInterval(Duration.ofMillis(100)))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = post(url, null, INITIALIZE).headers().firstValue("Mcp-Session-Id").orElseThrow();
      try (Socket stream = openStream(running.port(), session)) {
        // An SSE comment line, which every client ignores: three of them, one per interval.
        assertThat(readUntil(stream.getInputStream(), ": ping\n\n", 3)).contains(": ping\n\n");
        assertThat(running.servlet().sessions().openStreams()).isEqualTo(1);
        // The session stays alive while its stream does.
        assertThat(post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
            .statusCode()).isEqualTo(200);
      }
    }
  }

  @Test
  void aStreamWhoseClientLeftWithoutDeleteIsReleasedAndItsSessionSlotFreed() throws Exception {
    try (FusionHttpServer running = FusionHttp.serve(server(), HttpOptions.port(0)
        .stopOnShutdownSignal(false).maxSessions(1)
        .heartbeatInterval(Duration.ofMillis(100)).sessionIdleTimeout(IDLE))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = post(url, null, INITIALIZE).headers().firstValue("Mcp-Session-Id").orElseThrow();
      HttpSessions sessions = running.servlet().sessions();
      Socket stream = openStream(running.port(), session);
      // The headers leave before the servlet's thread registers the stream (they must not wait
      // for it): the count catches up a moment after the client has read them.
      await("the stream is registered", () -> sessions.openStreams() == 1);
      assertThat(post(url, null, INITIALIZE).statusCode()).as("the one session slot is taken").isEqualTo(503);

      stream.close(); // the client goes away: no DELETE, no further request

      await("the abandoned stream is released", () -> sessions.openStreams() == 0);
      await("the abandoned session frees its slot", () -> {
        try {
          return post(url, null, INITIALIZE).statusCode() == 200;
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      assertThat(sessions.open()).isEqualTo(1);
      assertThat(post(url, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}")
          .statusCode()).as("the abandoned session is gone").isEqualTo(404);
    }
  }

  @Test
  void aCallStreamResumedOnAGetReadsHeartbeatsAndIsReleasedWithEverythingItHeldWhenItsClientLeaves()
      throws Exception {
    ReplayBufferBoundTest.Recording store = new ReplayBufferBoundTest.Recording(EventStore.Limits.DEFAULT);
    Steps.StepsTools tools = new Steps.StepsTools();
    FusionServer fusion = FusionServer.builder("steps", "1.0.0")
        .register(Steps.StepsTools_Fusion.bind(tools)).build();
    try (FusionHttpServer running = FusionHttp.serve(fusion, HttpOptions.port(0)
        .stopOnShutdownSignal(false).heartbeatInterval(Duration.ofMillis(100)).eventStore(store))) {
      HttpSessions sessions = running.servlet().sessions();
      String session = ResumableStreamTest.initialize(running);
      String lastSeen;
      try (RawSse post = ResumableStreamTest.call(running, session, 9, "steps_run", "{}")) {
        post.nextMessage();
        lastSeen = post.nextMessage().id();
      } // cut while the call waits
      try (RawSse resumed = ResumableStreamTest.resume(running, session, lastSeen)) {
        assertThat(resumed.status).isEqualTo(200);
        for (int beats = 0; beats < 3; ) {
          RawSse.Event event = resumed.next();
          assertThat(event.data()).as("nothing but heartbeats while the call waits").isNull();
          if ("ping".equals(event.comment())) {
            beats++;
          }
        }
        assertThat(sessions.openStreams()).isEqualTo(1);
      } // the client leaves the resumed stream too
      await("the heartbeat finds the resumed stream's client gone", () -> sessions.openStreams() == 0);

      tools.goOn.countDown();
      HttpSessions.Session open = sessions.find(session);
      await("the call ends and its stream with it", () -> open.streams().liveStreams() == 0);
      assertThat(store.store.events()).as("steps 1-4 and the result wait for a resume").isEqualTo(5);

      try (RawSse delete = RawSse.send(running.port(), "DELETE", null, "Mcp-Session-Id", session)) {
        assertThat(delete.status).isEqualTo(204);
      }
      assertThat(store.store.events()).as("an ended session's events are dropped").isZero();
      assertThat(sessions.open()).isZero();
    }
  }

  @Test
  void anAbandonedSessionThatIdlesOutLeavesNoStoredEvents() throws Exception {
    ReplayBufferBoundTest.Recording store = new ReplayBufferBoundTest.Recording(EventStore.Limits.DEFAULT);
    try (FusionHttpServer running = FusionHttp.serve(server(), HttpOptions.port(0)
        .stopOnShutdownSignal(false).heartbeatInterval(Duration.ofMillis(100))
        .sessionIdleTimeout(IDLE).eventStore(store))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = post(url, null, INITIALIZE).headers().firstValue("Mcp-Session-Id").orElseThrow();
      HttpSessions sessions = running.servlet().sessions();
      Socket stream = openStream(running.port(), session);
      await("the stream is registered", () -> sessions.openStreams() == 1);
      sessions.notifyAll("notifications/message", java.util.Map.of("level", "info", "data", "kept"));
      await("the message is stored", () -> store.store.events() == 1);
      stream.close(); // the client goes away: no DELETE, no further request

      await("the abandoned session idles out", () -> sessions.open() == 0);
      assertThat(store.store.events()).isZero();
    }
  }

  @Test
  void theHeartbeatIntervalIsAnOptionWithASaneDefault() {
    assertThat(HttpOptions.defaults().heartbeatInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(HttpOptions.port(0).heartbeatInterval(Duration.ofSeconds(2)).heartbeatInterval())
        .isEqualTo(Duration.ofSeconds(2));
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> HttpOptions.defaults().heartbeatInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("heartbeatInterval must be positive");
  }
}
