package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.http.SessionStore;
import dev.mcpfusion.http.StoredSession;
import dev.mcpfusion.http.StoredEvent;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The session store's and the event store's time-to-live in Redis. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisSessionStoreTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private static final RedisSettings SHORT = new RedisSettings("ttl", Duration.ofSeconds(2), 10,
      Duration.ofMillis(600), Duration.ofMillis(600));

  @BeforeEach
  void flush() throws Exception {
    REDIS.flushAll();
  }

  private static StoredSession session(String id) {
    return new StoredSession(id, "local", "2025-11-25", "{}", null, "info");
  }

  @Test
  void aSessionNobodyTouchesExpiresAndATouchedOneStays() throws Exception {
    try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SHORT)) {
      SessionStore store = redis.sessionStore();
      store.save(session("idle"));
      store.save(session("used"));
      for (int i = 0; i < 6; i++) {
        Thread.sleep(200);
        store.touch("used");
      }
      assertThat(store.load("idle")).isEmpty();
      assertThat(store.load("used")).hasValue(session("used"));
    }
  }

  @Test
  void anEventStreamExpiresAfterItsNewestEvent() throws Exception {
    try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SHORT)) {
      redis.eventStore().append(new StoredEvent("s1", "tag.1", 1, "{}"));
      assertThat(redis.eventStore().eventsFrom("s1", "tag.1", 1)).isPresent();
      Thread.sleep(1_200);
      assertThat(redis.eventStore().eventsFrom("s1", "tag.1", 1)).isEmpty();
    }
  }
}
