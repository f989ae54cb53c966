package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.http.EventStore;
import dev.mcpfusion.http.StoredEvent;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The event store on Redis Streams, written by one instance and replayed by another. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisEventStoreTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private FusionRedis instanceA;
  private FusionRedis instanceB;

  @BeforeEach
  void connect() throws Exception {
    REDIS.flushAll();
    instanceA = FusionRedis.connect(REDIS.url());
    instanceB = FusionRedis.connect(REDIS.url());
  }

  @AfterEach
  void close() {
    instanceA.close();
    instanceB.close();
  }

  @Test
  void anotherInstanceReplaysWhatTheClientMissedAfterLastEventId() {
    EventStore a = instanceA.eventStore();
    EventStore b = instanceB.eventStore();
    for (int sequence = 1; sequence <= 5; sequence++) {
      a.append(new StoredEvent("s1", "tag.1", sequence, "{\"n\":" + sequence + "}"));
    }
    a.append(new StoredEvent("s1", "tag.2", 1, "{\"other\":true}"));

    // The client saw tag.1-3; it reconnects to B, which replays from 3 (the edge skips the one it saw).
    List<StoredEvent> replayed = b.eventsFrom("s1", "tag.1", 3).orElseThrow();

    assertThat(replayed).containsExactly(
        new StoredEvent("s1", "tag.1", 3, "{\"n\":3}"),
        new StoredEvent("s1", "tag.1", 4, "{\"n\":4}"),
        new StoredEvent("s1", "tag.1", 5, "{\"n\":5}"));
    assertThat(replayed.get(2).eventId()).isEqualTo("tag.1-5");
  }

  @Test
  void aStreamNeverWrittenIsEmptyAndOneCaughtUpHasNoEvents() {
    EventStore a = instanceA.eventStore();
    a.append(new StoredEvent("s1", "tag.1", 1, "{}"));

    assertThat(instanceB.eventStore().eventsFrom("s1", "tag.9", 1)).isEmpty();
    assertThat(instanceB.eventStore().eventsFrom("other", "tag.1", 1)).isEmpty();
    assertThat(instanceB.eventStore().eventsFrom("s1", "tag.1", 2)).hasValue(List.of());
  }

  @Test
  void aStreamKeepsItsNewestEventsOnlyWithConsecutiveSequences() {
    try (FusionRedis small = FusionRedis.connect(REDIS.url(),
        new RedisSettings("small", java.time.Duration.ofSeconds(2), 3,
            java.time.Duration.ofHours(1), java.time.Duration.ofMinutes(30)))) {
      EventStore store = small.eventStore();
      for (int sequence = 1; sequence <= 10; sequence++) {
        store.append(new StoredEvent("s1", "tag.1", sequence, "e" + sequence));
      }
      List<StoredEvent> kept = store.eventsFrom("s1", "tag.1", 1).orElseThrow();
      assertThat(kept).extracting(StoredEvent::sequence).containsExactly(8L, 9L, 10L);
    }
  }

  @Test
  void forgettingASessionDropsEveryStreamOfItOnEveryInstance() {
    EventStore a = instanceA.eventStore();
    a.append(new StoredEvent("s1", "tag.0", 1, "{}"));
    a.append(new StoredEvent("s1", "tag.1", 1, "{}"));
    a.append(new StoredEvent("s2", "tag.1", 1, "{\"kept\":1}"));

    instanceB.eventStore().forget("s1");

    assertThat(a.eventsFrom("s1", "tag.0", 1)).isEmpty();
    assertThat(a.eventsFrom("s1", "tag.1", 1)).isEmpty();
    assertThat(a.eventsFrom("s2", "tag.1", 1).orElseThrow()).hasSize(1);
  }
}
