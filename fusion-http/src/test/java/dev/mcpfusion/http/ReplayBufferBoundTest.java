package dev.mcpfusion.http;

import static dev.mcpfusion.http.ResumableStreamTest.call;
import static dev.mcpfusion.http.ResumableStreamTest.initialize;
import static dev.mcpfusion.http.ResumableStreamTest.resume;
import static dev.mcpfusion.http.ResumableStreamTest.says;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.http.fixtures.Steps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The replay buffer never grows past its limits, per stream and per server, in events and in
 * bytes: over a limit the oldest events are dropped, and a resume that reaches back past them is
 * refused (400) rather than replayed with a gap; a session that ends leaves nothing behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplayBufferBoundTest {
  private final List<FusionHttpServer> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(FusionHttpServer::close);
  }

  /** The in-memory store, with the largest sizes it ever reached after an append. */
  static final class Recording implements EventStore {
    final InMemoryEventStore store;
    int maxEvents;
    long maxBytes;
    int maxStreamEvents;
    long maxStreamBytes;
    int appended;

    Recording(Limits limits) {
      store = (InMemoryEventStore) EventStore.inMemory(limits);
    }

    @Override
    public synchronized void append(StoredEvent event) {
      store.append(event);
      appended++;
      maxEvents = Math.max(maxEvents, store.events());
      maxBytes = Math.max(maxBytes, store.bytes());
      maxStreamEvents = Math.max(maxStreamEvents, store.events(event.sessionId(), event.streamId()));
      maxStreamBytes = Math.max(maxStreamBytes, store.bytes(event.sessionId(), event.streamId()));
    }

    @Override
    public Optional<List<StoredEvent>> eventsFrom(String sessionId, String streamId, long sequence) {
      return store.eventsFrom(sessionId, streamId, sequence);
    }

    @Override
    public void forget(String sessionId) {
      store.forget(sessionId);
    }
  }

  private FusionHttpServer start(EventStore store) {
    FusionServer fusion = FusionServer.builder("steps", "1.0.0")
        .register(Steps.StepsTools_Fusion.bind(new Steps.StepsTools())).build();
    FusionHttpServer server = FusionHttp.serve(fusion,
        HttpOptions.port(0).stopOnShutdownSignal(false).eventStore(store));
    started.add(server);
    return server;
  }

  @Test
  void aStreamKeepsAtMostItsLimitAndAResumePastTheDroppedEventsIsRefused() throws Exception {
    Recording store = new Recording(new EventStore.Limits(5, 1L << 20, 100, 16L << 20));
    FusionHttpServer server = start(store);
    String session = initialize(server);
    List<RawSse.Event> events;
    try (RawSse post = call(server, session, 3, "steps_burst", "{\"count\":50,\"size\":10}")) {
      events = post.rest();
    }
    assertThat(events).hasSize(51); // 50 progress notifications and the result
    assertThat(store.appended).isEqualTo(51);
    assertThat(store.maxStreamEvents).isEqualTo(5);
    String stream = events.get(0).id().substring(0, events.get(0).id().indexOf('-'));
    assertThat(store.store.events(session, stream)).isEqualTo(5);

    try (RawSse tooOld = resume(server, session, events.get(0).id())) {
      assertThat(tooOld.status).isEqualTo(400);
      assertThat(message(tooOld)).isEqualTo(SessionStreams.DROPPED);
    }
    // The last five are kept: a client that saw event 46 misses nothing.
    try (RawSse resumed = resume(server, session, events.get(45).id())) {
      assertThat(resumed.status).isEqualTo(200);
      assertThat(says(resumed.rest())).containsExactly("progress 47", "progress 48", "progress 49",
          "progress 50", "result 3: sent 50");
    }
  }

  @Test
  void aStreamKeepsAtMostItsByteLimit() throws Exception {
    Recording store = new Recording(new EventStore.Limits(1_000, 2_000, 10_000, 1L << 20));
    FusionHttpServer server = start(store);
    String session = initialize(server);
    try (RawSse post = call(server, session, 4, "steps_burst", "{\"count\":30,\"size\":100}")) {
      assertThat(post.rest()).hasSize(31);
    }
    assertThat(store.maxStreamBytes).isLessThanOrEqualTo(2_000).isGreaterThan(1_500);
    assertThat(store.store.bytes()).isLessThanOrEqualTo(2_000);
  }

  @Test
  void theServerKeepsAtMostItsLimitAcrossSessionsAndAnEndedSessionLeavesNothing() throws Exception {
    Recording store = new Recording(new EventStore.Limits(10, 1L << 20, 12, 1L << 20));
    FusionHttpServer server = start(store);
    List<String> sessions = new ArrayList<>();
    List<String> streams = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String session = initialize(server);
      sessions.add(session);
      try (RawSse post = call(server, session, 5, "steps_burst", "{\"count\":9,\"size\":10}")) {
        List<RawSse.Event> events = post.rest();
        assertThat(events).hasSize(10);
        streams.add(events.get(0).id().substring(0, events.get(0).id().indexOf('-')));
      }
    }
    assertThat(store.appended).isEqualTo(30);
    assertThat(store.maxEvents).isEqualTo(12);
    assertThat(store.store.events()).isEqualTo(12);
    // The oldest went first: the last session's stream is whole, the first session's is gone.
    assertThat(store.store.events(sessions.get(2), streams.get(2))).isEqualTo(10);
    assertThat(store.store.events(sessions.get(1), streams.get(1))).isEqualTo(2);
    assertThat(store.store.events(sessions.get(0), streams.get(0))).isZero();
    try (RawSse gone = resume(server, sessions.get(0), streams.get(0) + "-3")) {
      assertThat(gone.status).isEqualTo(400);
      assertThat(message(gone)).isEqualTo(SessionStreams.DROPPED);
    }

    for (String session : sessions) {
      try (RawSse delete = RawSse.send(server.port(), "DELETE", null, "Mcp-Session-Id", session)) {
        assertThat(delete.status).isEqualTo(204);
      }
    }
    assertThat(store.store.events()).isZero();
    assertThat(store.store.bytes()).isZero();
  }

  @SuppressWarnings("unchecked")
  private static String message(RawSse answer) throws Exception {
    Map<String, Object> body = (Map<String, Object>) Json.parse(answer.text());
    return (String) ((Map<String, Object>) body.get("error")).get("message");
  }

  /** Thousands of appends of random sizes over many streams: no limit is ever passed. */
  @Test
  void noSequenceOfAppendsPassesALimit() {
    EventStore.Limits limits = new EventStore.Limits(20, 3_000, 150, 12_000);
    InMemoryEventStore store = (InMemoryEventStore) EventStore.inMemory(limits);
    Random random = new Random(42);
    long[][] next = new long[6][5];
    for (int i = 0; i < 20_000; i++) {
      int session = random.nextInt(6);
      int stream = random.nextInt(5);
      String data = "é".repeat(random.nextInt(400)); // two UTF-8 bytes a character
      store.append(new StoredEvent("s" + session, "t." + stream, ++next[session][stream], data));
      assertThat(store.events("s" + session, "t." + stream)).isLessThanOrEqualTo(20);
      assertThat(store.bytes("s" + session, "t." + stream)).isLessThanOrEqualTo(3_000);
      assertThat(store.events()).isLessThanOrEqualTo(150);
      assertThat(store.bytes()).isLessThanOrEqualTo(12_000);
      if (i % 97 == 0) {
        forget(store, random.nextInt(6), next);
      }
    }
    for (int session = 0; session < 6; session++) {
      for (int stream = 0; stream < 5; stream++) {
        List<StoredEvent> kept = store.eventsFrom("s" + session, "t." + stream, 1).orElse(List.of());
        for (int k = 0; k < kept.size(); k++) {
          // What is kept of a stream is its newest events, with no gap.
          assertThat(kept.get(k).sequence()).isEqualTo(next[session][stream] - kept.size() + 1 + k);
        }
      }
    }
  }

  private static void forget(InMemoryEventStore store, int session, long[][] next) {
    store.forget("s" + session);
    next[session] = new long[5];
    assertThat(store.eventsFrom("s" + session, "t.0", 1)).isEmpty();
  }

  @Test
  void aStoredEventIsPlainSerializableValues() throws Exception {
    StoredEvent event = new StoredEvent("session-1", "k3j9x0qa.2", 12, "{\"jsonrpc\":\"2.0\"}");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(event);
    }
    try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
        new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(event);
    }
    assertThat(event.eventId()).isEqualTo("k3j9x0qa.2-12");
    assertThatThrownBy(() -> new StoredEvent("s", "t", 0, "{}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("sequence must be at least 1, got 0");
  }

  @Test
  void theEventStoreIsAnOptionWhoseDefaultIsAFreshInMemoryStorePerEndpoint() {
    assertThat(HttpOptions.defaults().eventStore()).isNull();
    EventStore mine = EventStore.inMemory(new EventStore.Limits(1, 1, 1, 1));
    HttpOptions options = HttpOptions.port(0).eventStore(mine);
    assertThat(options.eventStore()).isSameAs(mine);
    assertThat(options.maxSessions(3).eventStore()).as("kept by every other setter").isSameAs(mine);
    assertThat(options.eventStore(null).eventStore()).isNull();
  }

  @Test
  void bytesAreTheUtf8LengthOfTheData() {
    InMemoryEventStore store = (InMemoryEventStore) EventStore.inMemory();
    store.append(new StoredEvent("s", "t.1", 1, "aé€😀")); // 1 + 2 + 3 + 4 bytes
    assertThat(store.bytes()).isEqualTo(10);
    assertThat(store.bytes("s", "t.1")).isEqualTo(10);
  }

  @Test
  void limitsMustBePositiveAndAStreamsWithinTheStores() {
    assertThatThrownBy(() -> new EventStore.Limits(0, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Every event-store limit must be positive");
    assertThatThrownBy(() -> new EventStore.Limits(10, 1, 5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("A stream's limits must not exceed the store's");
    assertThat(EventStore.Limits.DEFAULT).isEqualTo(new EventStore.Limits(1_000, 1L << 20, 10_000, 16L << 20));
  }
}
