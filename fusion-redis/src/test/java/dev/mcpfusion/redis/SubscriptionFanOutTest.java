package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 2025-era resource subscriptions across instances ({@link FusionRedis#subscriptionBus}): a
 * session's event stream on one instance, its {@code resources/subscribe} through a second, a
 * mutation by another session through a third, and the update arrives on the stream; and the bus
 * while Redis is down (a subscription refused at once with a retryable error, a mutation still
 * answered) and once it is back (subscriptions and updates work again, without a restart, even
 * when an instance's first read of the subscriptions after it fails).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriptionFanOutTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));
  /** The most a refused subscription may take: the command timeout plus slack on a busy machine. */
  private static final long BOUND_MS = 5_000;

  private static Fleet fleet() {
    return fleet(new ArrayList<>());
  }

  /** A fleet whose instances' buses are added to {@code buses}, in the instances' order. */
  private static Fleet fleet(List<RedisSubscriptions> buses) {
    return new Fleet(REDIS.url(), 3, SETTINGS, options -> options, (redis, builder) -> {
      RedisSubscriptions bus = (RedisSubscriptions) redis.subscriptionBus();
      buses.add(bus);
      return builder.subscriptionBus(bus);
    });
  }

  /** The headers of a request of {@code session} (a POST adds its own Accept). */
  private static String[] headers(String session) {
    return new String[] {"Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25"};
  }

  /** The headers of the GET that opens {@code session}'s event stream. */
  private static String[] get(String session) {
    return new String[] {"Accept", "text/event-stream", "Mcp-Session-Id", session,
        "MCP-Protocol-Version", "2025-11-25"};
  }

  private static String subscribe(int id, String method, String uri) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/" + method
        + "\",\"params\":{\"uri\":\"" + uri + "\"}}";
  }

  private static String edit(int id, String note) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
        + "\"name\":\"notes_edit\",\"arguments\":{\"id\":\"" + note + "\"}}}";
  }

  /** The URI an event's {@code notifications/resources/updated} names, or the whole event. */
  private static String updated(Fleet.Sse.Event event) {
    assertThat(event).as("an event on the stream").isNotNull();
    return event.data().contains("\"notifications/resources/updated\"")
        ? event.data().replaceAll(".*\"uri\":\"([^\"]+)\".*", "$1") : event.data();
  }

  @Test
  void aMutationThroughOneInstanceNotifiesASubscriberWhoseStreamIsOnAnother() throws Exception {
    try (Fleet fleet = fleet()) {
      String subscriber = fleet.initialize(0);
      String editor = fleet.initialize(0);
      try (Fleet.Sse stream = fleet.stream(1, "GET", null, get(subscriber))) {
        assertThat(stream.status).isEqualTo(200);
        assertThat(fleet.post(2, subscribe(2, "subscribe", "notes://n1"), headers(subscriber)).body())
            .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");

        assertThat(fleet.post(0, edit(3, "n1"), headers(editor)).body()).contains("edited n1");
        assertThat(updated(stream.next())).isEqualTo("notes://n1");
        assertThat(fleet.post(2, edit(4, "n1"), headers(editor)).body()).contains("edited n1");
        assertThat(updated(stream.next())).as("one update per mutation").isEqualTo("notes://n1");

        // Unsubscribed through yet another instance: the next update is for n2 alone, not n1.
        assertThat(fleet.post(0, subscribe(5, "unsubscribe", "notes://n1"), headers(subscriber))
            .statusCode()).isEqualTo(200);
        assertThat(fleet.post(1, subscribe(6, "subscribe", "notes://n2"), headers(subscriber))
            .statusCode()).isEqualTo(200);
        assertThat(fleet.post(2, edit(7, "n2"), headers(editor)).body()).contains("edited n2");
        assertThat(updated(stream.next())).isEqualTo("notes://n2");
      }
    }
  }

  @Test
  void whileRedisIsDownASubscriptionIsRefusedRetryablyAndAfterItIsBackUpdatesFlowAgain()
      throws Exception {
    List<RedisSubscriptions> buses = new ArrayList<>();
    try (Fleet fleet = fleet(buses)) {
      String subscriber = fleet.initialize(0);
      // Every instance that serves the subscriber below holds its session in memory: a restarted
      // Redis keeps nothing, and an instance that did not hold it would answer 404.
      try (Fleet.Sse stream = fleet.stream(1, "GET", null, get(subscriber))) {
        assertThat(fleet.post(2, subscribe(2, "subscribe", "notes://n1"), headers(subscriber))
            .statusCode()).isEqualTo(200);
        String editor = fleet.initialize(2);

        REDIS.stop();
        // Each instance's first read of the subscriptions once Redis is back fails, as when its
        // command connection comes back after its pub/sub one.
        for (RedisSubscriptions bus : buses) {
          AtomicBoolean failed = new AtomicBoolean();
          bus.beforeRead = () -> {
            if (failed.compareAndSet(false, true)) {
              throw new RedisUnavailableException("the command connection is not back yet (test)", null);
            }
          };
        }

        long started = System.nanoTime();
        HttpResponse<String> refused =
            fleet.post(2, subscribe(3, "subscribe", "notes://n2"), headers(subscriber));
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(BOUND_MS);
        assertThat(refused.body())
            .startsWith("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32003,\"message\":"
                + "\"Server busy: the subscription to notes://n2 could not be shared with this"
                + " server's other instances now (incident ")
            .contains("retry after 1 second.", "\"code\":\"SERVER_BUSY\"", "\"retryAfterSeconds\":1");
        // A mutation still succeeds: only its announcement is lost.
        assertThat(fleet.post(2, edit(4, "n1"), headers(editor)).body()).contains("edited n1");

        REDIS.start();

        // The fresh Redis kept no subscription; once the bus is back a new one is shared again.
        assertThat(eventually(() -> fleet.post(2, subscribe(5, "subscribe", "notes://n3"),
            headers(subscriber)).body().contains("\"result\":{}"))).isTrue();
        // The bus's own connection hears again once Lettuce has subscribed it anew: until then an
        // announcement reaches no one, so the editor edits until the stream hears one.
        java.util.concurrent.BlockingQueue<String> heard = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
          try {
            for (Fleet.Sse.Event event = stream.next(); event != null; event = stream.next()) {
              heard.add(updated(event));
            }
          } catch (java.io.IOException closed) {
            // The test closed the stream.
          }
        });
        reader.setDaemon(true);
        reader.start();
        String first = null;
        for (int id = 6; first == null && id < 26; id++) {
          assertThat(fleet.post(2, edit(id, "n3"), headers(editor)).body()).contains("edited n3");
          first = heard.poll(1, TimeUnit.SECONDS);
        }
        assertThat(first).as("an update after Redis came back reaches the stream on B")
            .isEqualTo("notes://n3");
        assertThat(heard).as("the subscription lost with the old Redis is not announced")
            .allMatch("notes://n3"::equals);
      }
    }
  }

  /** Whether {@code condition} holds within 20 s (failures count as not yet). */
  private static boolean eventually(Callable<Boolean> condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 20_000;
    while (System.currentTimeMillis() < deadline) {
      try {
        if (condition.call()) {
          return true;
        }
      } catch (Exception notYet) {
        // Redis is not back yet, or the bus has not reconnected yet.
      }
      Thread.sleep(100);
    }
    return false;
  }
}
