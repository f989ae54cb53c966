package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.task.TaskRecord;
import dev.mcpfusion.core.task.TaskStatus;
import dev.mcpfusion.http.StoredEvent;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis stops in the middle of a run and comes back on the same port: every call that needs it
 * fails within the command timeout with a clear error (never a hang), and the same connection
 * works again once Redis answers, without a restart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisDownTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  /** A short command timeout, so the bounds below are tight. */
  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));
  /** The most a failing call may take: the command timeout plus scheduling slack on a busy machine. */
  private static final long BOUND_MS = 5_000;
  /** The most Redis may take to be usable again after it restarted. */
  private static final long RECOVERY_MS = 20_000;

  @Test
  void everyStoreFailsBoundedAndClearlyWhileRedisIsDownAndRecoversWhenItIsBack() throws Exception {
    try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      long now = System.currentTimeMillis();
      TaskRecord task = new TaskRecord("t1", "", "greeter_hello", TaskStatus.WORKING, null, now, now,
          0, null, null, null);
      assertThat(redis.taskStore().create(task, 10, now)).isTrue();

      REDIS.stop();

      assertFailsWithin(() -> redis.taskStore().get("t1"), "read a task");
      assertFailsWithin(() -> {
        redis.eventStore().append(new StoredEvent("s1", "tag.1", 1, "{}"));
        return null;
      }, "append an event");
      assertFailsWithin(() -> {
        redis.eventStore().opened("s1", "tag.1", "7");
        return null;
      }, "record a streamed call");
      assertFailsWithin(() -> redis.eventStore().endOrphaned("s1", "tag.1", 1, id -> "{}"),
          "read who runs a streamed call");
      assertFailsWithin(() -> redis.sessionStore().load("s1"), "load a session");
      // Refused at once while the connection is down, not queued until the timeout.
      assertThatThrownBy(() -> redis.sessionStore().load("s1"))
          .hasMessageEndingWith(": the connection is down (reconnecting)");

      REDIS.start();

      // A fresh server (persistence is off): the task is gone, and the connection works again.
      assertThat(eventually(() -> redis.taskStore().get("t1") == null)).isTrue();
      redis.eventStore().append(new StoredEvent("s1", "tag.1", 1, "{\"back\":true}"));
      assertThat(redis.eventStore().eventsFrom("s1", "tag.1", 1).orElseThrow()).hasSize(1);
    }
  }

  @Test
  void aSessionRequestWhileRedisIsDownIsAClear503AndSessionsWorkAgainWhenItIsBack()
      throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS)) {
      String session = fleet.initialize(0);

      REDIS.stop();

      long started = System.nanoTime();
      HttpResponse<String> onB = fleet.post(1, Fleet.hello(2, "Ada"), "Mcp-Session-Id", session);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(BOUND_MS);
      assertThat(onB.statusCode()).isEqualTo(503);
      assertThat(onB.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(onB.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,"
          + "\"message\":\"Service Unavailable: the session store did not answer, so this server "
          + "cannot serve the session now; retry after 1 second.\"}}");

      HttpResponse<String> newSession = fleet.post(0, Fleet.INITIALIZE);
      assertThat(newSession.statusCode()).isEqualTo(503);
      assertThat(newSession.headers().firstValue("Mcp-Session-Id")).isEmpty();
      assertThat(newSession.body()).contains("Service Unavailable: the session store did not answer");

      // The instance that holds the session in memory still serves it.
      assertThat(fleet.post(0, Fleet.hello(3, "Ada"), "Mcp-Session-Id", session).body())
          .contains("Hello, Ada!");

      REDIS.start();

      assertThat(eventually(() -> fleet.post(0, Fleet.INITIALIZE).statusCode() == 200)).isTrue();
      // Each instance reconnects on its own: B answers 503 until its connection is back.
      assertThat(eventually(() -> fleet.post(1, Fleet.hello(5, "Ada"), "Mcp-Session-Id", session)
          .statusCode() != 503)).isTrue();
      // The restarted Redis kept nothing: an instance that did not hold the session says so.
      assertThat(fleet.post(1, Fleet.hello(6, "Ada"), "Mcp-Session-Id", session).statusCode())
          .isEqualTo(404);
      String fresh = fleet.initialize(0);
      assertThat(fleet.post(1, Fleet.hello(4, "Grace"), "Mcp-Session-Id", fresh).body())
          .contains("Hello, Grace!");
    }
  }

  @Test
  void aStreamResumedWhileRedisIsDownIsAClear503OnEveryInstanceAndNeverAHang() throws Exception {
    Stepper.goOn = new java.util.concurrent.CountDownLatch(1);
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS)) {
      String session = fleet.initialize(0);
      String[] headers = {"Accept", "application/json, text/event-stream", "Mcp-Session-Id",
          session, "MCP-Protocol-Version", "2025-11-25"};
      Fleet.Sse.Event first;
      try (Fleet.Sse post = fleet.stream(0, "POST", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
          + "\"tools/call\",\"params\":{\"name\":\"stepper_run\",\"arguments\":{},\"_meta\":"
          + "{\"progressToken\":\"p7\"}}}", headers)) {
        assertThat(post.status).isEqualTo(200);
        first = post.next(); // the client reads one event and loses the connection
        assertThat(post.next()).as("the second step, sent before Redis stops").isNotNull();
      }

      REDIS.stop();

      // On the instance that runs the call (it holds the session) and on the other (it does not).
      String[] resume = java.util.stream.Stream.concat(java.util.Arrays.stream(headers),
          java.util.stream.Stream.of("Last-Event-ID", first.id())).toArray(String[]::new);
      for (int instance : new int[] {0, 1}) {
        long started = System.nanoTime();
        try (Fleet.Sse resumed = fleet.stream(instance, "GET", null, resume)) {
          assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
              .as("instance %d answers within the bound", instance).isLessThan(BOUND_MS);
          String body = new String(resumed.in().readAllBytes(),
              java.nio.charset.StandardCharsets.UTF_8);
          assertThat(resumed.status).as("instance %d: %s", instance, body).isEqualTo(503);
          assertThat(body).isEqualTo(instance == 0
              ? "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":"
                  + "\"Service Unavailable: the event store did not answer, so this server cannot "
                  + "resume the stream now; retry after 1 second with the same Last-Event-ID.\"}}"
              : "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":"
                  + "\"Service Unavailable: the session store did not answer, so this server cannot "
                  + "serve the session now; retry after 1 second.\"}}");
        }
      }

      REDIS.start();
      Stepper.goOn.countDown();
      // The restarted Redis kept nothing (persistence is off): once the connection is back, the
      // instance running the call says the events after that id are gone, not that Redis is.
      assertThat(eventually(() -> {
        try (Fleet.Sse resumed = fleet.stream(0, "GET", null, resume)) {
          return resumed.status != 503;
        }
      })).isTrue();
      try (Fleet.Sse resumed = fleet.stream(0, "GET", null, resume)) {
        assertThat(resumed.status).isEqualTo(400);
        assertThat(new String(resumed.in().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
            .contains("the events after Last-Event-ID are no longer kept");
      }
    }
  }

  private static void assertFailsWithin(Callable<?> call, String what) {
    long started = System.nanoTime();
    assertThatThrownBy(call::call)
        .isInstanceOf(RedisUnavailableException.class)
        .hasMessageStartingWith("Redis at 127.0.0.1:" + REDIS.port() + " failed to " + what + ": ")
        .hasMessageNotContaining("Exception");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(BOUND_MS);
  }

  /** Whether {@code condition} holds within the recovery bound (failures count as not yet). */
  private static boolean eventually(Callable<Boolean> condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + RECOVERY_MS;
    while (System.currentTimeMillis() < deadline) {
      try {
        if (condition.call()) {
          return true;
        }
      } catch (Exception notYet) {
        // Redis is not back yet, or the connection has not reconnected yet.
      }
      Thread.sleep(100);
    }
    return false;
  }
}
