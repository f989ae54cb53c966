package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A handler on one instance asks the client (elicitation) on the session's stream; the client's
 * answer, POSTed through another instance, reaches the waiting handler through Redis. An answer
 * nothing waits for is refused at once; while Redis is down the answer is refused retryably and the
 * handler keeps waiting for it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RoutedAnswerTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));
  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
      + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"elicitation\":{}},"
      + "\"clientInfo\":{\"name\":\"fleet-test\",\"version\":\"1\"}}}";
  private static final String WHO = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
      + "\"params\":{\"name\":\"asker_who\",\"arguments\":{}}}";

  private static String initialize(Fleet fleet, int instance) throws Exception {
    HttpResponse<String> response = fleet.post(instance, INITIALIZE);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  /** Starts {@code asker_who} on {@code instance}; its stream, read up to the elicitation request. */
  private static Fleet.Sse ask(Fleet fleet, int instance, String session, String[] askedId) throws Exception {
    Fleet.Sse call = fleet.stream(instance, "POST", WHO, "Accept", "application/json, text/event-stream",
        "Mcp-Session-Id", session);
    assertThat(call.status).isEqualTo(200);
    Fleet.Sse.Event event = call.next();
    Map<?, ?> request = (Map<?, ?>) Json.parse(event.data());
    assertThat(request.get("method")).isEqualTo("elicitation/create");
    askedId[0] = (String) request.get("id");
    return call;
  }

  private static String accept(String id, String name) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(id) + ",\"result\":{\"action\":\"accept\","
        + "\"content\":{\"name\":\"" + name + "\"}}}";
  }

  @Test
  void anElicitationAskedOnOneInstanceIsAnsweredThroughAnother() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS)) {
      String session = initialize(fleet, 0);
      String[] id = new String[1];
      try (Fleet.Sse call = ask(fleet, 0, session, id)) {
        assertThat(id[0]).matches("fusion-[0-9a-f]{32}-1");

        HttpResponse<String> answered = fleet.post(1, accept(id[0], "Ada"), "Mcp-Session-Id", session);

        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(202);
        assertThat(answered.body()).isEmpty();
        Fleet.Sse.Event result = call.next();
        assertThat(result.data()).contains("\"id\":7", "Hello, Ada!").doesNotContain("\"isError\":true");
      }
      // The same answer again: nothing waits for it any more, on either instance.
      for (int instance = 0; instance < 2; instance++) {
        HttpResponse<String> again = fleet.post(instance, accept(id[0], "Bob"), "Mcp-Session-Id", session);
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("\"id\":null", "-32600");
      }
    }
  }

  @Test
  void anAnswerNothingWaitsForIsRefusedAtOnce() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS)) {
      String session = initialize(fleet, 0);
      String[] id = new String[1];
      try (Fleet.Sse call = ask(fleet, 0, session, id)) {
        String instanceA = id[0].substring("fusion-".length(), id[0].lastIndexOf('-'));
        // An id of instance A that it never asked: A hears it and says nothing waits for it.
        HttpResponse<String> unknown = fleet.post(1, accept("fusion-" + instanceA + "-99", "Eve"),
            "Mcp-Session-Id", session);
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("Bad Request: nothing waits for the response with id"
            + " \\\"fusion-" + instanceA + "-99\\\" any more (it was answered already, it timed out,"
            + " or the instance of the server that sent it stopped); the call that asked has ended.");
        // An instance that does not run: nobody listens.
        HttpResponse<String> gone = fleet.post(1, accept("fusion-0123abcd-1", "Eve"), "Mcp-Session-Id", session);
        assertThat(gone.statusCode()).isEqualTo(400);
        assertThat(gone.body()).contains("nothing waits for the response with id \\\"fusion-0123abcd-1\\\"");
        // An id no instance of this server sends.
        HttpResponse<String> foreign = fleet.post(1, accept("client-3", "Eve"), "Mcp-Session-Id", session);
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(foreign.body()).contains("Bad Request: no request of this server waits for a"
            + " response with id \\\"client-3\\\" (it was answered already, it timed out, or the"
            + " server never sent it); send a response only to a request the server sent, once.");

        // The real answer still reaches the handler.
        assertThat(fleet.post(1, accept(id[0], "Ada"), "Mcp-Session-Id", session).statusCode()).isEqualTo(202);
        assertThat(call.next().data()).contains("Hello, Ada!");
      }
    }
  }

  @Test
  void whileRedisIsDownTheAnswerIsRefusedRetryablyAndTheHandlerKeepsWaiting() throws Exception {
    try (Fleet fleet = new Fleet(REDIS.url(), 2, SETTINGS)) {
      String session = initialize(fleet, 0);
      // B holds the session before Redis goes down (a session it never saw needs the store).
      assertThat(fleet.post(1, Fleet.hello(3, "b"), "Mcp-Session-Id", session).body()).contains("Hello, b!");
      String[] id = new String[1];
      try (Fleet.Sse call = ask(fleet, 0, session, id)) {
        REDIS.stop();

        long started = System.nanoTime();
        HttpResponse<String> refused = fleet.post(1, accept(id[0], "Ada"), "Mcp-Session-Id", session);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(refused.body()).contains("Service Unavailable: this response could not be handed"
            + " to the instance of the server that waits for it now; send it again.");

        REDIS.start();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        HttpResponse<String> again = fleet.post(1, accept(id[0], "Ada"), "Mcp-Session-Id", session);
        // 503 until this instance reconnects; 400 until the asking one has subscribed again.
        while (again.statusCode() != 202) {
          assertThat(again.statusCode()).isIn(400, 503);
          assertThat(System.nanoTime()).as("the answer is taken within 30 s of Redis being back")
              .isLessThan(deadline);
          Thread.sleep(100);
          again = fleet.post(1, accept(id[0], "Ada"), "Mcp-Session-Id", session);
        }
        assertThat(again.statusCode()).as(again.body()).isEqualTo(202);
        assertThat(call.next().data()).contains("Hello, Ada!");
      }
    }
  }
}
