package dev.mcpfusion.http;

import static dev.mcpfusion.http.ResumableStreamTest.call;
import static dev.mcpfusion.http.ResumableStreamTest.initialize;
import static dev.mcpfusion.http.ResumableStreamTest.resume;
import static dev.mcpfusion.http.ResumableStreamTest.says;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.http.fixtures.Steps;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Last-Event-ID} values a client should never send — malformed, of another session, never
 * sent, hostile text — each get a 400 with a JSON-RPC error saying which, before any event is
 * sent; the value is never echoed, no other session's event is ever replayed, and the server goes
 * on serving.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostileLastEventIdTest {
  private FusionHttpServer server;
  private String alice;
  private String bob;
  /** The ids of the events alice's call streamed: progress 1, progress 2, the result. */
  private List<String> aliceIds;

  @BeforeEach
  void start() throws Exception {
    FusionServer fusion = FusionServer.builder("steps", "1.0.0")
        .register(Steps.StepsTools_Fusion.bind(new Steps.StepsTools())).build();
    server = FusionHttp.serve(fusion, HttpOptions.port(0).stopOnShutdownSignal(false));
    alice = initialize(server);
    bob = initialize(server);
    try (RawSse post = call(server, alice, 2, "steps_burst", "{\"count\":2,\"size\":1}")) {
      aliceIds = post.rest().stream().map(RawSse.Event::id).toList();
    }
    assertThat(aliceIds).hasSize(3);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String tag() {
    return aliceIds.get(0).substring(0, 8);
  }

  /** Resumes with {@code lastEventId} and checks the answer: 400 with {@code message}, nothing echoed. */
  @SuppressWarnings("unchecked")
  private void refused(String session, String lastEventId, String message) throws Exception {
    try (RawSse answer = resume(server, session, lastEventId)) {
      String body = answer.text();
      assertThat(answer.status).as("Last-Event-ID '%s'", lastEventId).isEqualTo(400);
      assertThat(answer.headers.get("content-type")).startsWith("application/json");
      Map<String, Object> error = (Map<String, Object>) ((Map<String, Object>) Json.parse(body)).get("error");
      assertThat(error).containsEntry("code", (long) JsonRpc.INVALID_REQUEST).containsEntry("message", message);
      if (lastEventId.trim().length() > 2) {
        assertThat(body).as("the value is not echoed").doesNotContain(lastEventId.trim());
      }
    }
  }

  @Test
  void malformedIdsAreRefusedAsNotSentByThisServer() throws Exception {
    String tag = tag();
    for (String hostile : List.of("", "  ", "abc", "1-1", "0-1", "-1", tag, tag + ".1", tag + ".1-",
        tag + ".1-0", tag + ".01-1", tag + ".1-01", tag + ".-1-1", tag + ".1-1-1", tag + "..1-1",
        tag.toUpperCase() + ".1-1", tag + ".1-99999999999999999999", tag + ".99999999999999999999-1",
        tag + ".1-1 " + tag + ".1-2", tag + "x.1-1", "../../../etc/passwd", "<script>alert(1)</script>",
        "%00", "x".repeat(4000))) {
      refused(alice, hostile, SessionStreams.MALFORMED);
    }
  }

  @Test
  void anIdOfAnotherSessionIsRefusedAndNothingOfThatSessionIsReplayed() throws Exception {
    // Bob has a POST stream with the same number: only the tag tells alice's ids from his.
    try (RawSse post = call(server, bob, 2, "steps_burst", "{\"count\":2,\"size\":1}")) {
      assertThat(post.rest()).hasSize(3);
    }
    for (String id : aliceIds) {
      refused(bob, id, SessionStreams.FOREIGN);
    }
  }

  @Test
  void anIdThisSessionNeverSentIsRefused() throws Exception {
    String tag = tag();
    refused(alice, tag + ".1-4", SessionStreams.UNKNOWN);       // after the stream's last event
    refused(alice, tag + ".2-1", SessionStreams.UNKNOWN);       // a stream never opened
    refused(alice, tag + ".0-1", SessionStreams.UNKNOWN);       // the GET stream, never opened
    refused(alice, tag + ".999999-1", SessionStreams.UNKNOWN);
  }

  @Test
  void aResumeNamesItsSessionAndOnlyALiveOne() throws Exception {
    try (RawSse none = RawSse.send(server.port(), "GET", null, "Accept", "text/event-stream",
        "Last-Event-ID", aliceIds.get(0))) {
      assertThat(none.status).isEqualTo(400);
    }
    try (RawSse unknown = resume(server, "no-such-session", aliceIds.get(0))) {
      assertThat(unknown.status).isEqualTo(404);
    }
  }

  @Test
  void afterEveryRefusalTheRealIdStillResumes() throws Exception {
    malformedIdsAreRefusedAsNotSentByThisServer();
    refused(bob, aliceIds.get(0), SessionStreams.FOREIGN);
    try (RawSse resumed = resume(server, alice, aliceIds.get(0))) {
      assertThat(resumed.status).isEqualTo(200);
      assertThat(says(resumed.rest())).containsExactly("progress 2", "result 2: sent 2");
    }
  }
}
