package dev.mcpfusion.http;

import static dev.mcpfusion.http.ResumableStreamTest.await;
import static dev.mcpfusion.http.ResumableStreamTest.data;
import static dev.mcpfusion.http.ResumableStreamTest.getHeaders;
import static dev.mcpfusion.http.ResumableStreamTest.ids;
import static dev.mcpfusion.http.ResumableStreamTest.initialize;
import static dev.mcpfusion.http.ResumableStreamTest.resume;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Steps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two instances sharing a session store and an event store (in memory here; fusion-redis's
 * {@code CrossInstanceResumeTest} runs the same on Redis): a session's GET stream cut on one is
 * resumed on the other with what it missed, and then carried on there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedStreamResumeTest {
  private final List<FusionHttpServer> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(FusionHttpServer::close);
  }

  /** Sessions in a map every instance of this test shares. */
  static final class MapSessionStore implements SessionStore {
    private final Map<String, StoredSession> sessions = new ConcurrentHashMap<>();

    @Override
    public void save(StoredSession session) {
      sessions.put(session.sessionId(), session);
    }

    @Override
    public Optional<StoredSession> load(String sessionId) {
      return Optional.ofNullable(sessions.get(sessionId));
    }

    @Override
    public void touch(String sessionId) {}

    @Override
    public void remove(String sessionId) {
      sessions.remove(sessionId);
    }
  }

  private FusionHttpServer start(EventStore events, SessionStore sessions) {
    FusionServer server = FusionServer.builder("steps", "1.0.0")
        .register(Steps.StepsTools_Fusion.bind(new Steps.StepsTools())).build();
    FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0)
        .stopOnShutdownSignal(false).eventStore(events).sessionStore(sessions));
    started.add(running);
    return running;
  }

  @Test
  void aGetStreamCutOnOneInstanceIsResumedAndCarriedOnByAnother() throws Exception {
    EventStore events = EventStore.inMemory();
    SessionStore shared = new MapSessionStore();
    FusionHttpServer a = start(events, shared);
    FusionHttpServer b = start(events, shared);
    String session = initialize(a);
    HttpSessions onA = a.servlet().sessions();
    List<RawSse.Event> received = new ArrayList<>();
    try (RawSse get = RawSse.send(a.port(), "GET", null, getHeaders(session))) {
      await("the GET stream is open on A", () -> onA.openStreams() == 1);
      ResumableStreamTest.notify(onA, "one");
      received.add(get.nextMessage());
    } // cut on A
    await("A let the cut stream go", () -> {
      ResumableStreamTest.notify(onA, "while away");
      return onA.openStreams() == 0;
    });

    HttpSessions onB = b.servlet().sessions();
    try (RawSse resumed = resume(b, session, received.get(0).id())) {
      assertThat(resumed.status).isEqualTo(200);
      List<RawSse.Event> missed = new ArrayList<>();
      await("B carries the stream on", () -> onB.openStreams() == 1);
      ResumableStreamTest.notify(onB, "after the resume");
      for (RawSse.Event event = resumed.nextMessage(); ; event = resumed.nextMessage()) {
        missed.add(event);
        if (data(event).equals("after the resume")) {
          break;
        }
      }
      received.addAll(missed);
    }

    List<String> texts = received.stream().map(ResumableStreamTest::data).toList();
    assertThat(texts.get(0)).isEqualTo("one");
    assertThat(texts.subList(1, texts.size() - 1)).isNotEmpty().allMatch("while away"::equals);
    assertThat(texts.get(texts.size() - 1)).isEqualTo("after the resume");
    assertThat(ids(received)).doesNotHaveDuplicates();
    String streamOnA = received.get(0).id().substring(0, received.get(0).id().indexOf('-'));
    String last = received.get(received.size() - 1).id();
    assertThat(received.subList(0, received.size() - 1)).extracting(RawSse.Event::id)
        .allMatch(id -> id.startsWith(streamOnA + "-"));
    assertThat(last).as("later events carry B's stream").endsWith(".0-1")
        .doesNotStartWith(streamOnA);
  }
}
