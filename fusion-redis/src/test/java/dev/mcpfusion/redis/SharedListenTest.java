package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 2026-07-28 {@code subscriptions/listen} streams across instances with a subscription bus
 * ({@link FusionRedis#subscriptionBus}): a stream held by one instance hears of a mutation made
 * through another, and of one made through its own, each exactly once; a stream of another scope
 * key, or one listening to another router's resource, hears nothing of it; and while Redis is down
 * a mutation reaches no stream, its own instance's included, until Redis is back.
 *
 * <p>Exactly once, without waiting for silence: every instance hears the bus's messages in the
 * order Redis received them, and each mutation below is made only once the streams it concerns
 * heard the one before, so a second copy of a mutation would arrive before the next expected one.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SharedListenTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));
  private static final String NOTE = "notes://n1";
  private static final String PIN = "pins://p1";

  private final List<Fleet.Sse> streams = new ArrayList<>();

  @AfterEach
  void closeStreams() throws Exception {
    for (Fleet.Sse stream : streams) {
      stream.close();
    }
  }

  /** {@code count} instances on one Redis, with the bus, scoped by the {@code X-Tenant} header. */
  private static Fleet fleet(int count) {
    return new Fleet(REDIS.url(), count, SETTINGS, options -> options,
        (redis, builder) -> builder.subscriptionBus(redis.subscriptionBus())
            .subscriptionScope(request -> request.header("X-Tenant").orElse(null))
            .register(new Pins()));
  }

  private static Map<String, Object> meta() {
    return Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities", Map.of());
  }

  /**
   * Opens a listen stream for {@code uris} on {@code instance} under {@code tenant}; its messages
   * arrive in the queue, the acknowledgement (checked here) taken off it.
   */
  private BlockingQueue<Map<?, ?>> listen(Fleet fleet, int instance, String id, String tenant,
      List<String> uris) throws Exception {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta());
    params.put("notifications", Map.of("resourceSubscriptions", uris));
    Fleet.Sse stream = fleet.stream(instance, "POST", Json.write(Map.of("jsonrpc", "2.0", "id", id,
            "method", "subscriptions/listen", "params", params)),
        "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28",
        "Mcp-Method", "subscriptions/listen", "X-Tenant", tenant);
    streams.add(stream);
    assertThat(stream.status).isEqualTo(200);
    BlockingQueue<Map<?, ?>> messages = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try {
        for (Fleet.Sse.Event event = stream.next(); event != null; event = stream.next()) {
          messages.add((Map<?, ?>) Json.parse(event.data()));
        }
      } catch (java.io.IOException closed) {
        // The test closed the stream.
      }
    });
    reader.setDaemon(true);
    reader.start();
    Map<?, ?> acknowledged = next(messages);
    assertThat(acknowledged.get("method")).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(acknowledged.get("params")).isEqualTo(Map.of(
        "_meta", Map.of("io.modelcontextprotocol/subscriptionId", id),
        "notifications", Map.of("resourceSubscriptions", uris)));
    return messages;
  }

  /** The next message of a stream, within 20 s. */
  private static Map<?, ?> next(BlockingQueue<Map<?, ?>> messages) throws InterruptedException {
    Map<?, ?> message = messages.poll(20, TimeUnit.SECONDS);
    assertThat(message).as("a message on the listen stream within 20 s").isNotNull();
    return message;
  }

  /** The URI the stream's next message, an update tagged with the stream's {@code id}, names. */
  private static String updated(BlockingQueue<Map<?, ?>> messages, String id)
      throws InterruptedException {
    Map<?, ?> message = next(messages);
    assertThat(message.get("method")).as("%s", message)
        .isEqualTo("notifications/resources/updated");
    Map<?, ?> params = (Map<?, ?>) message.get("params");
    assertThat(params.get("_meta")).isEqualTo(Map.of("io.modelcontextprotocol/subscriptionId", id));
    return (String) params.get("uri");
  }

  /** The URI an update names, or {@code null} for no message. */
  private static String uri(Map<?, ?> message) {
    return message == null ? null : (String) ((Map<?, ?>) message.get("params")).get("uri");
  }

  /** A 2026-07-28 call of {@code tool} ({@code notes_edit}, {@code pins_move}) under {@code tenant}. */
  private static String mutate(Fleet fleet, int instance, String tool, String target,
      String tenant) throws Exception {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", tool);
    params.put("arguments", Map.of("id", target));
    params.put("_meta", meta());
    return fleet.post(instance, Json.write(Map.of("jsonrpc", "2.0", "id", 9, "method", "tools/call",
            "params", params)), "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
        "Mcp-Name", tool, "X-Tenant", tenant).body();
  }

  @Test
  void aListenerHearsAMutationThroughAnotherInstanceAndThroughItsOwnOnceEach() throws Exception {
    try (Fleet fleet = fleet(3)) {
      BlockingQueue<Map<?, ?>> onA = listen(fleet, 0, "on-a", "acme", List.of(NOTE, PIN));
      BlockingQueue<Map<?, ?>> onB = listen(fleet, 1, "on-b", "acme", List.of(NOTE, PIN));
      BlockingQueue<Map<?, ?>> pinsOnB = listen(fleet, 1, "pins-on-b", "acme", List.of(PIN));
      BlockingQueue<Map<?, ?>> otherOnB = listen(fleet, 1, "other-on-b", "globex", List.of(NOTE, PIN));

      // Through A: B's stream hears it through the bus, A's own stream from the bus as well.
      assertThat(mutate(fleet, 0, "notes_edit", "n1", "acme")).contains("edited n1");
      assertThat(updated(onA, "on-a")).isEqualTo(NOTE);
      assertThat(updated(onB, "on-b")).isEqualTo(NOTE);

      // Through B; a second copy of the edit above would come before this on A.
      assertThat(mutate(fleet, 1, "pins_move", "p1", "acme")).contains("moved p1");
      assertThat(updated(onA, "on-a")).as("after the edit, its one update").isEqualTo(PIN);
      assertThat(updated(onB, "on-b")).isEqualTo(PIN);
      assertThat(updated(pinsOnB, "pins-on-b")).as("the edit of a note is not a pin's")
          .isEqualTo(PIN);

      // Through C, under another tenant: only that tenant's stream hears it, and it heard
      // nothing of acme's two mutations before it.
      assertThat(mutate(fleet, 2, "pins_move", "p1", "globex")).contains("moved p1");
      assertThat(updated(otherOnB, "other-on-b")).isEqualTo(PIN);

      // Through C again, under acme: a second copy of the move above would come before this on B.
      assertThat(mutate(fleet, 2, "notes_edit", "n1", "acme")).contains("edited n1");
      assertThat(updated(onB, "on-b")).as("after the move, its one update").isEqualTo(NOTE);
      assertThat(updated(onA, "on-a")).as("globex's move is not acme's").isEqualTo(NOTE);

      // And one more that every acme stream hears: the pins-only stream skipped the edit, the
      // globex stream skipped all of acme's.
      assertThat(mutate(fleet, 2, "pins_move", "p1", "acme")).contains("moved p1");
      assertThat(updated(pinsOnB, "pins-on-b")).isEqualTo(PIN);
      assertThat(mutate(fleet, 0, "notes_edit", "n1", "globex")).contains("edited n1");
      assertThat(updated(otherOnB, "other-on-b")).isEqualTo(NOTE);
    }
  }

  @Test
  void whileRedisIsDownAMutationReachesNoListenerAndOnceItIsBackUpdatesFlowAgain()
      throws Exception {
    try (Fleet fleet = fleet(2)) {
      BlockingQueue<Map<?, ?>> onA = listen(fleet, 0, "on-a", "acme", List.of(NOTE, PIN));
      BlockingQueue<Map<?, ?>> onB = listen(fleet, 1, "on-b", "acme", List.of(NOTE, PIN));

      REDIS.stop();
      // The call succeeds; its announcement is lost, for the stream on its own instance too.
      assertThat(mutate(fleet, 0, "notes_edit", "n1", "acme")).contains("edited n1");
      REDIS.start();

      // Each bus hears again once Lettuce has subscribed its channel anew: until then a move
      // reaches no one, so it is repeated until both streams heard one.
      String firstOnA = null;
      String firstOnB = null;
      for (int tries = 0; (firstOnA == null || firstOnB == null) && tries < 20; tries++) {
        assertThat(mutate(fleet, 0, "pins_move", "p1", "acme")).contains("moved p1");
        firstOnA = firstOnA != null ? firstOnA : uri(onA.poll(1, TimeUnit.SECONDS));
        firstOnB = firstOnB != null ? firstOnB : uri(onB.poll(1, TimeUnit.SECONDS));
      }
      assertThat(firstOnA).as("on A, an update after Redis came back, not the edit made while it"
          + " was down").isEqualTo(PIN);
      assertThat(firstOnB).as("on B, likewise").isEqualTo(PIN);
    }
  }
}
