package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances of one connector behind no session affinity: a 2025-era session initialised on
 * one is served by the other, through the session store on Redis.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedSessionTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  @BeforeEach
  void flush() throws Exception {
    REDIS.flushAll();
  }

  @Test
  void aSessionInitialisedOnOneInstanceIsServedByAnother() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT)) {
      String session = fleet.initialize(0);
      assertThat(fleet.post(1, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
          "Mcp-Session-Id", session).statusCode()).isEqualTo(202);

      HttpResponse<String> onB = fleet.post(1, Fleet.hello(2, "Ada"), "Mcp-Session-Id", session);
      assertThat(onB.statusCode()).isEqualTo(200);
      assertThat(onB.body()).contains("Hello, Ada!").doesNotContain("\"error\"");

      HttpResponse<String> listedOnB = fleet.post(1,
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}", "Mcp-Session-Id", session);
      assertThat(listedOnB.statusCode()).isEqualTo(200);
      assertThat(listedOnB.body()).contains("\"greeter_hello\"");

      HttpResponse<String> backOnA = fleet.post(0, Fleet.hello(4, "Grace"), "Mcp-Session-Id", session);
      assertThat(backOnA.body()).contains("Hello, Grace!");

      REDIS.flushAll();
      assertThat(fleet.post(1, Fleet.hello(5, "Alan"), "Mcp-Session-Id", session).body())
          .as("B holds the session in memory once it loaded it").contains("Hello, Alan!");
    }
  }

  @Test
  void anInstanceThatIdlesASessionOutClosesOnlyItsOwnCopy() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT,
        options -> options.sessionIdleTimeout(java.time.Duration.ofMillis(300)))) {
      String session = fleet.initialize(0);
      Thread.sleep(600);
      // Idle on A: A closes its copy, and the session is still in the store for every instance.
      HttpResponse<String> again = fleet.post(0, Fleet.hello(2, "Ada"), "Mcp-Session-Id", session);
      assertThat(again.statusCode()).isEqualTo(200);
      assertThat(again.body()).contains("Hello, Ada!");
      assertThat(fleet.post(1, Fleet.hello(3, "Ada"), "Mcp-Session-Id", session).body())
          .contains("Hello, Ada!");
    }
  }

  @Test
  void withoutTheSharedStoreTheOtherInstanceDoesNotKnowTheSession() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT)) {
      String session = fleet.initialize(0);
      REDIS.flushAll(); // the store forgets it: B has nowhere to find it

      HttpResponse<String> onB = fleet.post(1, Fleet.hello(2, "Ada"), "Mcp-Session-Id", session);
      assertThat(onB.statusCode()).isEqualTo(404);
      assertThat(fleet.post(0, Fleet.hello(3, "Ada"), "Mcp-Session-Id", session).body())
          .as("A still holds it in memory").contains("Hello, Ada!");
    }
  }

  @Test
  void aSessionLoadedWhileTheInstanceIsAtItsCapIsServiceUnavailableNotNotFound() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT,
        options -> options.maxSessions(1))) {
      String onA = fleet.initialize(0);
      String onB = fleet.initialize(1); // each instance now holds its one session

      HttpResponse<String> refused = fleet.post(1, Fleet.hello(2, "Ada"), "Mcp-Session-Id", onA);
      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("5");
      assertThat(refused.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,"
          + "\"message\":\"Service Unavailable: this server holds the most sessions it allows (1) "
          + "and cannot take this one on; retry after 5 seconds.\"}}");
      assertThat(fleet.post(0, Fleet.hello(3, "Ada"), "Mcp-Session-Id", onA).body())
          .as("the session lives on: its own instance serves it").contains("Hello, Ada!");

      assertThat(fleet.delete(1, onB).statusCode()).isEqualTo(204);
      assertThat(fleet.post(1, Fleet.hello(4, "Ada"), "Mcp-Session-Id", onA).body())
          .as("B takes it on once it has room").contains("Hello, Ada!");
    }
  }

  @Test
  void aLogLevelSetOnOneInstanceIsTheLevelOnAnother() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT)) {
      String session = fleet.initialize(0);
      assertThat(fleet.post(0, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\","
          + "\"params\":{\"level\":\"error\"}}", "Mcp-Session-Id", session).statusCode()).isEqualTo(200);

      try (FusionRedis reader = FusionRedis.connect(REDIS.url())) {
        assertThat(reader.sessionStore().load(session).orElseThrow().logLevel()).isEqualTo("error");
        assertThat(reader.sessionStore().load(session).orElseThrow().clientCapabilities())
            .isEqualTo("{\"roots\":{}}");
      }
    }
  }

  @Test
  void deleteOnOneInstanceEndsTheSessionOnEvery() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT)) {
      String session = fleet.initialize(0);
      assertThat(fleet.post(1, Fleet.hello(2, "Ada"), "Mcp-Session-Id", session).statusCode())
          .isEqualTo(200);

      assertThat(fleet.delete(1, session).statusCode()).isEqualTo(204);

      try (FusionRedis reader = FusionRedis.connect(REDIS.url())) {
        assertThat(reader.sessionStore().load(session)).isEmpty();
      }
      // A forgets it too once it asks the store: until then it holds its own copy in memory.
      assertThat(fleet.post(1, Fleet.hello(3, "Ada"), "Mcp-Session-Id", session).statusCode())
          .isEqualTo(404);
    }
  }
}
