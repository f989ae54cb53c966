package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A streamed call whose instance stopped before it replied: a client resuming the stream on
 * another instance gets the events it missed, once, then the request's own retryable error saying
 * the outcome is unknown, stored so that every later resume gets the same answer. The stopped
 * instance is simulated in one JVM: its heartbeat is no longer sent (what a SIGKILL leaves behind)
 * while its call stays blocked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadInstanceStreamTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private static final Duration LEASE = Duration.ofMillis(300);
  private static final RedisSettings SETTINGS = RedisSettings.DEFAULT.withLiveness(LEASE);
  private static final String RUN = "{\"jsonrpc\":\"2.0\",\"id\":\"run-7\",\"method\":\"tools/call\","
      + "\"params\":{\"name\":\"stepper_run\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p7\"}}}";

  @BeforeEach
  void flush() throws Exception {
    REDIS.flushAll();
    Stepper.goOn = new CountDownLatch(1);
    Stepper.stepped = new CountDownLatch(1);
  }

  private static String says(Fleet.Sse.Event event) {
    if (event.data().contains("\"notifications/progress\"")) {
      return "progress " + event.data().replaceAll(".*\"progress\":([0-9]+).*", "$1");
    }
    return event.data().contains("\"error\"") ? "error" : event.data();
  }

  /** Starts the call on instance 0, reads its first event and cuts the connection; that event. */
  private static Fleet.Sse.Event startAndCut(Fleet fleet, String session) throws Exception {
    try (Fleet.Sse post = fleet.stream(0, "POST", RUN, Fleet.streamHeaders(session))) {
      assertThat(post.status).isEqualTo(200);
      return post.next();
    }
  }

  private static String streamOf(Fleet.Sse.Event event) {
    return event.id().substring(0, event.id().lastIndexOf('-'));
  }

  private static List<Fleet.Sse.Event> resume(Fleet fleet, int instance, String session,
      String lastEventId) throws Exception {
    try (Fleet.Sse resumed = fleet.stream(instance, "GET", null,
        Fleet.streamHeaders(session, "Last-Event-ID", lastEventId))) {
      assertThat(resumed.status).as("instance %d resumes the stream", instance).isEqualTo(200);
      return resumed.rest();
    }
  }

  @Test
  void aStreamWhoseInstanceStoppedIsReplayedOnceThenEndsWithItsRequestsRetryableError()
      throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS);
        FusionRedis reader = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      String session = fleet.initialize(0);
      Fleet.Sse.Event first = startAndCut(fleet, session);
      String stream = streamOf(first);
      Fleet.await("A stored the second step", 20, () -> reader.eventStore()
          .eventsFrom(session, stream, 1).map(List::size).orElse(0) == 2);

      FusionRedis owner = fleet.redis(0);
      owner.stopRenewingLeases(); // instance 0 "dies": its call never replies
      String alive = owner.aliveKey(owner.instance());
      Fleet.await("instance 0's heartbeat lapsed", 20, () -> reader.run("read a heartbeat",
          c -> c.exists(alive)) == 0);

      List<Fleet.Sse.Event> resumed = resume(fleet, 1, session, first.id());
      assertThat(resumed).extracting(DeadInstanceStreamTest::says)
          .containsExactly("progress 2", "error");
      assertThat(resumed).extracting(Fleet.Sse.Event::id)
          .containsExactly(stream + "-2", stream + "-3");
      Map<?, ?> reply = (Map<?, ?>) Json.parse(resumed.get(1).data());
      assertThat(reply.get("id")).as("the request's own id").isEqualTo("run-7");
      Map<?, ?> error = (Map<?, ?>) reply.get("error");
      assertThat(((Number) error.get("code")).intValue()).isEqualTo(-32003);
      assertThat((String) error.get("message"))
          .startsWith("Server busy: the server instance that ran this request stopped before it"
              + " replied, so whether the request took effect is unknown.")
          .contains("before repeating a change, read what it changes")
          .endsWith("Retry after 1 second.");
      Map<?, ?> data = (Map<?, ?>) error.get("data");
      assertThat(new java.util.ArrayList<Object>(data.keySet()))
          .containsExactlyInAnyOrder("code", "outcome", "retryAfterSeconds");
      assertThat(data.get("code")).isEqualTo("SERVER_BUSY");
      assertThat(data.get("outcome")).isEqualTo("unknown");
      assertThat(((Number) data.get("retryAfterSeconds")).intValue()).isEqualTo(1);

      // Stored: a second resume gets the same answer, not a second ending.
      assertThat(resume(fleet, 1, session, first.id())).isEqualTo(resumed);
      assertThat(resume(fleet, 1, session, resumed.get(1).id())).isEmpty();

      // The stopped instance's late events are dropped: the stream keeps its ending.
      Stepper.goOn.countDown();
      assertThat(Stepper.stepped.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(reader.eventStore().eventsFrom(session, stream, 1).orElseThrow())
          .extracting(event -> event.data()).containsExactly(
              first.data(), resumed.get(0).data(), resumed.get(1).data());
    }
  }

  @Test
  void aStreamWhoseInstanceLivesIsNotEndedAndIsResumedAgainUntilItsReply() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS);
        FusionRedis reader = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      String session = fleet.initialize(0);
      Fleet.Sse.Event first = startAndCut(fleet, session);
      String stream = streamOf(first);
      Fleet.await("A stored the second step", 20, () -> reader.eventStore()
          .eventsFrom(session, stream, 1).map(List::size).orElse(0) == 2);
      // Longer than the liveness: a heartbeat that were not sent would have lapsed by now.
      Thread.sleep(LEASE.toMillis() * 3);

      List<Fleet.Sse.Event> early = resume(fleet, 1, session, first.id());
      assertThat(early).extracting(DeadInstanceStreamTest::says).containsExactly("progress 2");

      Stepper.goOn.countDown();
      List<Fleet.Sse.Event> rest = new ArrayList<>();
      Fleet.await("the rest is resumed on B", 20, () -> {
        try {
          rest.addAll(resume(fleet, 1, session,
              rest.isEmpty() ? early.get(0).id() : rest.get(rest.size() - 1).id()));
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        return !rest.isEmpty() && rest.get(rest.size() - 1).data().contains("all 4 steps done");
      });
      assertThat(rest).extracting(DeadInstanceStreamTest::says).doesNotContain("error");
      assertThat(rest).extracting(Fleet.Sse.Event::id).containsExactly(stream + "-3",
          stream + "-4", stream + "-5");
    }
  }

  @Test
  void aStreamThatRepliedBeforeItsInstanceStoppedEndsWithItsReply() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS);
        FusionRedis reader = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      String session = fleet.initialize(0);
      Fleet.Sse.Event first = startAndCut(fleet, session);
      String stream = streamOf(first);
      Stepper.goOn.countDown();
      Fleet.await("A stored the reply", 20, () -> reader.eventStore()
          .eventsFrom(session, stream, 1).map(List::size).orElse(0) == 5);
      FusionRedis owner = fleet.redis(0);
      owner.stopRenewingLeases();
      String alive = owner.aliveKey(owner.instance());
      Fleet.await("instance 0's heartbeat lapsed", 20, () -> reader.run("read a heartbeat",
          c -> c.exists(alive)) == 0);

      List<Fleet.Sse.Event> resumed = resume(fleet, 1, session, first.id());
      assertThat(resumed).extracting(DeadInstanceStreamTest::says).containsExactly("progress 2",
          "progress 3", "progress 4", resumed.get(3).data());
      assertThat(resumed.get(3).data()).contains("all 4 steps done").doesNotContain("\"error\"");
    }
  }

  /**
   * With the default settings a client resuming a stopped instance's stream gets the error within
   * seconds: the heartbeat lapses after the liveness (6 s), not after the task lease (30 s), and
   * an instance that has only a task store sends no heartbeat at all.
   */
  @Test
  void withTheDefaultSettingsAStoppedInstancesStreamEndsWithinSecondsNotAfterTheTaskLease()
      throws Exception {
    RedisSettings defaults = RedisSettings.DEFAULT;
    assertThat(defaults.liveness()).isEqualTo(Duration.ofSeconds(6));
    assertThat(defaults.taskLease()).isEqualTo(Duration.ofSeconds(30));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> defaults.withLiveness(
        Duration.ofMillis(5))).hasMessage("liveness must be at least 30 ms, got PT0.005S");
    try (Fleet fleet = new Fleet(REDIS.url(), 2, defaults);
        FusionRedis tasksOnly = FusionRedis.connect(REDIS.url(), defaults)) {
      tasksOnly.taskStore();
      long beating = tasksOnly.run("read a heartbeat",
          c -> c.exists(tasksOnly.aliveKey(tasksOnly.instance())));
      assertThat(beating).as("a heartbeat of an instance with no event store").isZero();
      FusionRedis owner = fleet.redis(0);
      owner.taskStore();
      String alive = owner.aliveKey(owner.instance());
      long heartbeat = owner.run("read a heartbeat", c -> c.pttl(alive));
      assertThat(heartbeat).as("the heartbeat's expiry, ms").isBetween(1L, 6_000L);
      long lease = owner.run("read a task lease", c -> c.pttl(owner.leaseKey(owner.instance())));
      assertThat(lease).as("the task lease's expiry, ms, apart").isGreaterThan(6_000L);

      String session = fleet.initialize(0);
      Fleet.Sse.Event first = startAndCut(fleet, session);
      owner.stopRenewingLeases(); // instance 0 "dies": its call never replies
      // The client resumes every 250 ms, as a client of a fleet does, for at most 15 s: half the
      // task lease, so a stream still ended by the task lease never gets its error here.
      List<String> got = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      String last = first.id();
      try {
        while (!got.contains("error") && System.nanoTime() < deadline) {
          for (Fleet.Sse.Event event : resume(fleet, 1, session, last)) {
            got.add(says(event));
            last = event.id();
          }
          Thread.sleep(250);
        }
      } finally {
        Stepper.goOn.countDown(); // the blocked call ends, so the instances close at once
      }
      assertThat(got).as("the resumes, within 15 s of the instance stopping")
          .containsExactly("progress 2", "error");
    }
  }
}
