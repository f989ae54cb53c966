package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.http.fixtures.Steps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Resumable event streams over real HTTP (a raw socket to the started server, so the test cuts
 * the connection exactly where it wants): a call's streamed response cut mid-stream, with
 * progress and the result still to come, is resumed with {@code Last-Event-ID} and every event
 * arrives exactly once; the same for the session's GET stream. Every wait is a poll with a bound.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResumableStreamTest {
  static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"" + ProtocolVersions.LATEST_CLASSIC + "\",\"capabilities\":{},"
      + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  private static final Duration BOUND = Duration.ofSeconds(20);

  private final List<FusionHttpServer> started = new ArrayList<>();
  Steps.StepsTools tools;

  @AfterEach
  void stop() {
    started.forEach(FusionHttpServer::close);
  }

  FusionHttpServer start(HttpOptions options) {
    tools = new Steps.StepsTools();
    FusionServer server = FusionServer.builder("steps", "1.0.0")
        .register(Steps.StepsTools_Fusion.bind(tools))
        .build();
    FusionHttpServer running = FusionHttp.serve(server, options.withPort(0).stopOnShutdownSignal(false));
    started.add(running);
    return running;
  }

  static String initialize(FusionHttpServer server) throws Exception {
    String session;
    try (RawSse init = RawSse.send(server.port(), "POST", INIT,
        "Accept", "application/json, text/event-stream")) {
      assertThat(init.status).isEqualTo(200);
      session = init.headers.get("mcp-session-id");
    }
    try (RawSse initialized = RawSse.send(server.port(), "POST",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", classic(session))) {
      assertThat(initialized.status).isEqualTo(202);
    }
    return session;
  }

  static String[] classic(String session, String... more) {
    String[] headers = new String[6 + more.length];
    headers[0] = "Accept";
    headers[1] = "application/json, text/event-stream";
    headers[2] = "Mcp-Session-Id";
    headers[3] = session;
    headers[4] = "MCP-Protocol-Version";
    headers[5] = ProtocolVersions.LATEST_CLASSIC;
    System.arraycopy(more, 0, headers, 6, more.length);
    return headers;
  }

  /** A tools/call asking for progress, its response read as a stream. */
  static RawSse call(FusionHttpServer server, String session, int id, String tool, String arguments)
      throws Exception {
    return RawSse.send(server.port(), "POST", "{\"jsonrpc\":\"2.0\",\"id\":" + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments
        + ",\"_meta\":{\"progressToken\":\"p" + id + "\"}}}", classic(session));
  }

  /** A GET on the session, resuming after {@code lastEventId}. */
  static RawSse resume(FusionHttpServer server, String session, String lastEventId) throws Exception {
    String[] headers = classic(session, "Last-Event-ID", lastEventId);
    headers[1] = "text/event-stream";
    return RawSse.send(server.port(), "GET", null, headers);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("%s within %s", what, BOUND).isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  static HttpSessions.Session session(FusionHttpServer server, String id) {
    return server.servlet().sessions().find(id);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> json(RawSse.Event event) {
    return (Map<String, Object>) Json.parse(event.data());
  }

  /** What an event says: {@code progress N}, or the call's result text. */
  @SuppressWarnings("unchecked")
  static String says(RawSse.Event event) {
    Map<String, Object> message = json(event);
    if ("notifications/progress".equals(message.get("method"))) {
      return "progress " + ((Map<String, Object>) message.get("params")).get("progress");
    }
    Map<String, Object> result = (Map<String, Object>) message.get("result");
    List<Map<String, Object>> content = (List<Map<String, Object>>) result.get("content");
    return "result " + message.get("id") + ": " + content.get(0).get("text");
  }

  static List<String> says(List<RawSse.Event> events) {
    return events.stream().map(ResumableStreamTest::says).toList();
  }

  static List<String> ids(List<RawSse.Event> events) {
    return events.stream().map(RawSse.Event::id).toList();
  }

  @Test
  void aCallCutMidStreamIsResumedAfterItEndedAndEveryEventArrivesExactlyOnce() throws Exception {
    FusionHttpServer server = start(HttpOptions.defaults());
    String session = initialize(server);
    HttpSessions sessions = server.servlet().sessions();
    RawSse get = RawSse.send(server.port(), "GET", null, getHeaders(session));
    await("the GET stream is open", () -> sessions.openStreams() == 1);
    List<RawSse.Event> received = new ArrayList<>();
    try (RawSse post = call(server, session, 7, "steps_run", "{}")) {
      assertThat(post.status).isEqualTo(200);
      assertThat(post.headers.get("content-type")).startsWith("text/event-stream");
      received.add(post.nextMessage());
      // Step 2 has been written to this connection too, but the client never reads it.
      assertThat(tools.halfway.await(20, TimeUnit.SECONDS)).isTrue();
    } // the connection is cut: step 2 is in flight, steps 3 and 4 and the result are still to come
    notify(sessions, "for the GET stream"); // another stream's message: never replayed on this one
    tools.goOn.countDown();
    await("the call's reply is stored", () -> session(server, session).streams().liveStreams() == 0);
    try (get) {
      assertThat(data(get.nextMessage())).isEqualTo("for the GET stream");
    }

    try (RawSse resumed = resume(server, session, received.get(0).id())) {
      assertThat(resumed.status).isEqualTo(200);
      assertThat(resumed.headers.get("content-type")).startsWith("text/event-stream");
      received.addAll(resumed.rest()); // the stream ended with the reply: the body ends
    }

    assertThat(says(received)).containsExactly("progress 1", "progress 2", "progress 3",
        "progress 4", "result 7: all 4 steps done");
    String stream = received.get(0).id().substring(0, received.get(0).id().indexOf('-'));
    assertThat(ids(received)).containsExactly(stream + "-1", stream + "-2", stream + "-3",
        stream + "-4", stream + "-5");
  }

  @Test
  void aClientThatResumesWhileTheCallRunsReceivesTheRestLiveAndTheStreamEndsWithTheResult()
      throws Exception {
    FusionHttpServer server = start(HttpOptions.defaults());
    String session = initialize(server);
    List<RawSse.Event> received = new ArrayList<>();
    try (RawSse post = call(server, session, 8, "steps_run", "{}")) {
      received.add(post.nextMessage());
      received.add(post.nextMessage());
    } // cut after two steps, while the handler waits
    try (RawSse resumed = resume(server, session, received.get(1).id())) {
      assertThat(resumed.status).isEqualTo(200);
      await("the resumed stream is carried on the GET",
          () -> server.servlet().sessions().openStreams() == 1);
      tools.goOn.countDown();
      received.addAll(resumed.rest());
    }

    assertThat(says(received)).containsExactly("progress 1", "progress 2", "progress 3",
        "progress 4", "result 8: all 4 steps done");
    assertThat(ids(received)).doesNotHaveDuplicates();
    await("the ended stream's GET is released", () -> server.servlet().sessions().openStreams() == 0);
  }

  @Test
  void theGetStreamIsResumedWithWhatItMissedWhileTheClientWasAway() throws Exception {
    FusionHttpServer server = start(HttpOptions.defaults());
    String session = initialize(server);
    HttpSessions sessions = server.servlet().sessions();
    List<RawSse.Event> received = new ArrayList<>();
    try (RawSse get = RawSse.send(server.port(), "GET", null, getHeaders(session))) {
      assertThat(get.status).isEqualTo(200);
      await("the GET stream is open", () -> sessions.openStreams() == 1);
      notify(sessions, "one");
      notify(sessions, "two");
      received.add(get.nextMessage());
    } // cut: "two" is in flight
    await("the cut stream is released", () -> {
      notify(sessions, "while away"); // a write to a cut connection fails (soon), then the stream lets it go
      return sessions.openStreams() == 0;
    });
    notify(sessions, "last");
    try (RawSse resumed = resume(server, session, received.get(0).id())) {
      assertThat(resumed.status).isEqualTo(200);
      List<RawSse.Event> missed = new ArrayList<>();
      for (RawSse.Event event = resumed.nextMessage(); ; event = resumed.nextMessage()) {
        missed.add(event);
        if (data(event).equals("last")) {
          break;
        }
      }
      received.addAll(missed);
      // The stream goes on where it was: the next message arrives on the resumed connection.
      notify(sessions, "after the resume");
      received.add(resumed.nextMessage());
    }
    List<String> texts = received.stream().map(ResumableStreamTest::data).toList();
    assertThat(texts.get(0)).isEqualTo("one");
    assertThat(texts.get(1)).isEqualTo("two");
    assertThat(texts.subList(2, texts.size() - 2)).isNotEmpty().allMatch("while away"::equals);
    assertThat(texts.subList(texts.size() - 2, texts.size())).containsExactly("last", "after the resume");
    assertThat(ids(received)).doesNotHaveDuplicates();
    String stream = received.get(0).id().substring(0, received.get(0).id().indexOf('-'));
    assertThat(stream).endsWith(".0");
    for (int i = 0; i < received.size(); i++) {
      assertThat(received.get(i).id()).isEqualTo(stream + "-" + (i + 1));
    }
  }

  @Test
  void aStatelessStreamedResponseCarriesNoEventIds() throws Exception {
    FusionHttpServer server = start(HttpOptions.defaults());
    try (RawSse post = RawSse.send(server.port(), "POST", "{\"jsonrpc\":\"2.0\",\"id\":3,"
        + "\"method\":\"tools/call\",\"params\":{\"name\":\"steps_burst\",\"arguments\":"
        + "{\"count\":2,\"size\":1},\"_meta\":{\"progressToken\":\"m\","
        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}",
        "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28",
        "Mcp-Method", "tools/call", "Mcp-Name", "steps_burst")) {
      assertThat(post.status).isEqualTo(200);
      assertThat(post.headers.get("content-type")).startsWith("text/event-stream");
      List<RawSse.Event> events = post.rest();
      assertThat(says(events)).containsExactly("progress 1", "progress 2", "result 3: sent 2");
      assertThat(ids(events)).containsOnlyNulls();
    }
  }

  static String[] getHeaders(String session) {
    String[] headers = classic(session);
    headers[1] = "text/event-stream";
    return headers;
  }

  static void notify(HttpSessions sessions, String text) {
    sessions.notifyAll("notifications/message", Map.of("level", "info", "data", text));
  }

  @SuppressWarnings("unchecked")
  static String data(RawSse.Event event) {
    return (String) ((Map<String, Object>) json(event).get("params")).get("data");
  }
}
