package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.http.Authentication;
import dev.mcpfusion.http.HttpAuthenticator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fleet-wide rate limit ({@link FusionRedis#rateLimit}): across two instances exactly its
 * permits are admitted in a window and the rest refused with a {@code SERVER_BUSY} that says when
 * the next permit frees; the window frees after its period; a per-caller limit counts each caller
 * apart; Redis down, every call is refused (fail closed), and calls run again once Redis is back.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FleetRateLimitTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));
  private static final Pattern RETRY = Pattern.compile("<retry_after>(\\d+) seconds?</retry_after>");
  /** Who a request says it is, in a header only this test's authenticator trusts. */
  private static final HttpAuthenticator BY_HEADER = new HttpAuthenticator() {
    @Override
    public boolean authenticate(Map<String, String> headers) {
      return headers.containsKey("x-user");
    }

    @Override
    public Authentication verify(Map<String, String> headers) {
      String user = headers.get("x-user");
      return user == null ? Authentication.missing()
          : Authentication.accepted(Caller.of(user, List.of()));
    }
  };

  private static Fleet fleet(int permits, Duration per, boolean perCaller) {
    return new Fleet(REDIS.url(), 2, SETTINGS, options -> perCaller ? options.auth(BY_HEADER) : options,
        (redis, builder) -> {
          FleetRateLimit limit = redis.rateLimit("calls", permits, per);
          return builder.middleware(perCaller ? limit.perCaller() : limit);
        });
  }

  private static long retrySeconds(String body) {
    Matcher m = RETRY.matcher(body);
    assertThat(m.find()).as("a retry hint in %s", body).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void acrossInstancesExactlyThePermitsAreAdmittedAndTheRestToldWhenTheNextFrees() throws Exception {
    try (Fleet fleet = fleet(3, Duration.ofSeconds(30), false)) {
      String[] sessions = {fleet.initialize(0), fleet.initialize(1)};
      long started = System.nanoTime();
      List<String> bodies = new java.util.ArrayList<>();
      for (int i = 0; i < 8; i++) {
        bodies.add(fleet.post(i % 2, Fleet.hello(10 + i, "n" + i), "Mcp-Session-Id", sessions[i % 2]).body());
      }
      long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 1;

      assertThat(bodies.subList(0, 3)).allSatisfy(body -> assertThat(body).contains("Hello, n"));
      assertThat(bodies.subList(3, 8)).allSatisfy(body -> {
        assertThat(body).contains("<tool_error code=\\\"SERVER_BUSY\\\"",
            "The server is busy: it takes at most 3 calls per 30 seconds across its instances,"
                + " and 3 were made in the last 30 seconds.",
            "<detail key=\\\"rate_limit\\\">calls</detail>", "<detail key=\\\"state\\\">limited</detail>",
            "\"isError\":true").doesNotContain("Hello");
        // When the first admitted call leaves the window: 30 s after it, so at most 30 s from now
        // and no less than 30 s minus the time the calls took.
        assertThat(retrySeconds(body)).isBetween(30 - elapsed, 30L);
      });
      // A refused call is not counted: the window holds the three admitted calls only.
      try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SETTINGS)) {
        Long inWindow = redis.run("count", commands -> commands.zcard(redis.key("rate", "calls")));
        assertThat(inWindow).isEqualTo(3L);
      }
    }
  }

  @Test
  void theWindowFreesAfterItsPeriod() throws Exception {
    // Three seconds: room for the three calls on a busy machine; the test waits for the hint.
    try (Fleet fleet = fleet(2, Duration.ofSeconds(3), false)) {
      String session = fleet.initialize(0);
      assertThat(fleet.post(0, Fleet.hello(2, "a"), "Mcp-Session-Id", session).body()).contains("Hello, a!");
      assertThat(fleet.post(1, Fleet.hello(3, "b"), "Mcp-Session-Id", session).body()).contains("Hello, b!");
      String refused = fleet.post(0, Fleet.hello(4, "c"), "Mcp-Session-Id", session).body();
      assertThat(refused).contains("it takes at most 2 calls per 3 seconds across its instances,"
          + " and 2 were made in the last 3 seconds.");
      assertThat(retrySeconds(refused)).isBetween(1L, 3L);

      Thread.sleep(TimeUnit.SECONDS.toMillis(retrySeconds(refused)) + 100);

      assertThat(fleet.post(1, Fleet.hello(5, "d"), "Mcp-Session-Id", session).body()).contains("Hello, d!");
    }
  }

  @Test
  void aPerCallerLimitCountsEachCallerApart() throws Exception {
    try (Fleet fleet = fleet(2, Duration.ofSeconds(30), true)) {
      String alice = initialize(fleet, 0, "alice");
      String bob = initialize(fleet, 1, "bob");
      for (int i = 0; i < 2; i++) {
        assertThat(fleet.post(i % 2, Fleet.hello(2 + i, "a" + i), "Mcp-Session-Id", alice, "X-User", "alice")
            .body()).contains("Hello, a" + i);
      }
      assertThat(fleet.post(1, Fleet.hello(9, "a"), "Mcp-Session-Id", alice, "X-User", "alice").body())
          .contains("The server is busy: it takes at most 2 calls per 30 seconds from each caller"
              + " across its instances, and 2 came from this caller in the last 30 seconds.");
      // Bob's window is his own: alice used all of hers.
      for (int i = 0; i < 2; i++) {
        assertThat(fleet.post(i % 2, Fleet.hello(2 + i, "b" + i), "Mcp-Session-Id", bob, "X-User", "bob")
            .body()).contains("Hello, b" + i);
      }
      assertThat(fleet.post(0, Fleet.hello(9, "b"), "Mcp-Session-Id", bob, "X-User", "bob").body())
          .contains("came from this caller");
    }
  }

  @Test
  void perCallerEveryUnauthenticatedCallSharesOneWindow() throws Exception {
    try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      FleetRateLimit limit = redis.rateLimit("local", 1, Duration.ofSeconds(30)).perCaller();
      assertThat(limit.invoke(unauthenticated(), call -> "ran")).isEqualTo("ran");
      assertThatThrownBy(() -> limit.invoke(unauthenticated(), call -> "ran"))
          .isInstanceOf(dev.mcpfusion.core.FusionError.class)
          .hasMessageContaining("it takes at most 1 call per 30 seconds from each caller");
    }
  }

  /** A call made without authentication (the local caller). */
  private static dev.mcpfusion.core.Invocation unauthenticated() {
    return new dev.mcpfusion.core.Invocation() {
      @Override
      public String router() {
        return "greeter";
      }

      @Override
      public String action() {
        return "hello";
      }

      @Override
      public String toolName() {
        return "greeter_hello";
      }

      @Override
      public Map<String, Object> arguments() {
        return Map.of();
      }

      @Override
      public dev.mcpfusion.core.RequestContext request() {
        return dev.mcpfusion.core.RequestContext.empty();
      }

      @Override
      public <T> dev.mcpfusion.core.Invocation with(Class<T> type, T value) {
        return this;
      }

      @Override
      public <T> java.util.Optional<T> get(Class<T> type) {
        return java.util.Optional.empty();
      }
    };
  }

  private static String initialize(Fleet fleet, int instance, String user) throws Exception {
    var response = fleet.post(instance, Fleet.INITIALIZE, "X-User", user);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  @Test
  void whileRedisIsDownEveryCallIsRefusedAndCallsRunAgainWhenItIsBack() throws Exception {
    try (Fleet fleet = fleet(100, Duration.ofSeconds(60), false)) {
      String session = fleet.initialize(0);
      assertThat(fleet.post(0, Fleet.hello(2, "a"), "Mcp-Session-Id", session).body()).contains("Hello, a!");

      REDIS.stop();

      long started = System.nanoTime();
      String refused = fleet.post(0, Fleet.hello(3, "b"), "Mcp-Session-Id", session).body();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
      assertThat(refused).contains("<tool_error code=\\\"SERVER_BUSY\\\"",
          "The server is busy: it cannot check the rate limit its instances share now (the store"
              + " that keeps it does not answer), so it runs no call that needs it.",
          "<retry_after>1 second</retry_after>", "<detail key=\\\"state\\\">unavailable</detail>")
          .doesNotContain("Hello");

      REDIS.start();

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      int id = 4;
      while (!fleet.post(0, Fleet.hello(id++, "c"), "Mcp-Session-Id", session).body().contains("Hello, c!")) {
        assertThat(System.nanoTime()).as("calls run again within 30 s").isLessThan(deadline);
        Thread.sleep(50);
      }
    }
  }

  @Test
  void aRateLimitIsCheckedWhenItIsMade() {
    try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      assertThatThrownBy(() -> redis.rateLimit("calls", 0, Duration.ofSeconds(1)))
          .hasMessage("Rate limit calls: permits must be between 1 and 100000, got 0");
      assertThatThrownBy(() -> redis.rateLimit("calls", 100_001, Duration.ofSeconds(1)))
          .hasMessage("Rate limit calls: permits must be between 1 and 100000, got 100001");
      assertThatThrownBy(() -> redis.rateLimit(" ", 1, Duration.ofSeconds(1)))
          .hasMessage("A rate limit's name must be non-blank and contain no '{' or '}', got ' '");
      assertThatThrownBy(() -> redis.rateLimit("calls", 1, Duration.ofMillis(1500)))
          .hasMessage("Rate limit calls: the period must be a whole number of seconds, at least 1,"
              + " got PT1.5S");
      assertThatThrownBy(() -> redis.rateLimit("calls", 1, Duration.ZERO))
          .hasMessage("Rate limit calls: the period must be a whole number of seconds, at least 1,"
              + " got PT0S");
      assertThat(redis.rateLimit("calls", 5, Duration.ofMinutes(1)).perCaller().isPerCaller()).isTrue();
    }
  }
}
