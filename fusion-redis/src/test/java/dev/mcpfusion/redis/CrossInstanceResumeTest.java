package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stream cut on one instance is resumed on another through the HTTP endpoint: the client reads
 * part of a call's streamed response from A, reconnects to B with {@code Last-Event-ID}, and
 * receives exactly the events it missed, from the event store on Redis.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrossInstanceResumeTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private static final String RUN = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
      + "\"params\":{\"name\":\"stepper_run\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p7\"}}}";

  @BeforeEach
  void flush() throws Exception {
    REDIS.flushAll();
    Stepper.goOn = new CountDownLatch(1);
  }

  /** What an event says: {@code progress N}, or that it is the call's result. */
  private static String says(Fleet.Sse.Event event) {
    if (event.data().contains("\"notifications/progress\"")) {
      return "progress " + event.data().replaceAll(".*\"progress\":([0-9]+).*", "$1");
    }
    return event.data().contains("all 4 steps done") ? "result" : event.data();
  }

  @Test
  void aCallCutOnOneInstanceIsResumedOnAnotherWithExactlyTheEventsMissed() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT);
        FusionRedis reader = FusionRedis.connect(REDIS.url())) {
      String session = fleet.initialize(0);
      List<Fleet.Sse.Event> received = new ArrayList<>();
      try (Fleet.Sse post = fleet.stream(0, "POST", RUN, Fleet.streamHeaders(session))) {
        assertThat(post.status).isEqualTo(200);
        received.add(post.next());
        received.add(post.next());
      } // cut on A after two steps; the call goes on there
      String firstId = received.get(0).id();
      String stream = firstId.substring(0, firstId.lastIndexOf('-'));
      Stepper.goOn.countDown();
      Fleet.await("A stored the call's last two steps and its result", 20, () -> reader.eventStore()
          .eventsFrom(session, stream, 1).map(List::size).orElse(0) == 5);

      try (Fleet.Sse resumed = fleet.stream(1, "GET", null,
          Fleet.streamHeaders(session, "Last-Event-ID", received.get(1).id()))) {
        assertThat(resumed.status).as("B resumes A's stream").isEqualTo(200);
        received.addAll(resumed.rest()); // the stream ended with the result: the body ends
      }

      assertThat(received).extracting(CrossInstanceResumeTest::says)
          .containsExactly("progress 1", "progress 2", "progress 3", "progress 4", "result");
      assertThat(received).extracting(Fleet.Sse.Event::id).containsExactly(stream + "-1",
          stream + "-2", stream + "-3", stream + "-4", stream + "-5");
    }
  }

  @Test
  void aResumeOnAnotherInstanceWhileTheCallStillRunsGetsWhatIsStoredThenTheRestOnTheNext()
      throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT);
        FusionRedis reader = FusionRedis.connect(REDIS.url())) {
      String session = fleet.initialize(0);
      List<Fleet.Sse.Event> received = new ArrayList<>();
      try (Fleet.Sse post = fleet.stream(0, "POST", RUN, Fleet.streamHeaders(session))) {
        received.add(post.next());
      } // cut on A after one step; the call goes on to its second, then waits
      String firstId = received.get(0).id();
      String stream = firstId.substring(0, firstId.lastIndexOf('-'));
      Fleet.await("A stored the second step", 20, () -> reader.eventStore()
          .eventsFrom(session, stream, 1).map(List::size).orElse(0) == 2);

      try (Fleet.Sse early = fleet.stream(1, "GET", null,
          Fleet.streamHeaders(session, "Last-Event-ID", received.get(0).id()))) {
        assertThat(early.status).isEqualTo(200);
        // The call runs on A: B replays what is stored and ends the connection.
        received.addAll(early.rest());
      }
      assertThat(received).extracting(CrossInstanceResumeTest::says)
          .containsExactly("progress 1", "progress 2");

      Stepper.goOn.countDown();
      String last = received.get(received.size() - 1).id();
      List<Fleet.Sse.Event> rest = new ArrayList<>();
      Fleet.await("the rest is resumed on B", 20, () -> {
        try (Fleet.Sse again = fleet.stream(1, "GET", null, Fleet.streamHeaders(session, "Last-Event-ID",
            rest.isEmpty() ? last : rest.get(rest.size() - 1).id()))) {
          rest.addAll(again.rest());
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        return !rest.isEmpty() && says(rest.get(rest.size() - 1)).equals("result");
      });
      received.addAll(rest);

      assertThat(received).extracting(CrossInstanceResumeTest::says)
          .containsExactly("progress 1", "progress 2", "progress 3", "progress 4", "result");
      assertThat(received).extracting(Fleet.Sse.Event::id).doesNotHaveDuplicates();
    }
  }

  @Test
  void anIdOfAnotherSessionIsStillRefusedOnEveryInstance() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, RedisSettings.DEFAULT)) {
      String mine = fleet.initialize(0);
      String theirs = fleet.initialize(0);
      String theirId;
      try (Fleet.Sse post = fleet.stream(0, "POST", RUN, Fleet.streamHeaders(theirs))) {
        theirId = post.next().id();
      }
      Stepper.goOn.countDown();

      try (Fleet.Sse refused = fleet.stream(1, "GET", null,
          Fleet.streamHeaders(mine, "Last-Event-ID", theirId))) {
        assertThat(refused.status).isEqualTo(400);
        assertThat(new String(refused.in().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
            .contains("Last-Event-ID names an event of another session");
      }
    }
  }
}
