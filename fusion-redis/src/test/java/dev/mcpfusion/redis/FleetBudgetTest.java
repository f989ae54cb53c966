package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fleet-wide budget of concurrent calls ({@link FusionRedis#budget}): across instances, never
 * more than its calls inside the handler (counted there), the rest refused with a
 * {@code SERVER_BUSY} the agent reads, with when to retry; a dead instance's permits come back when
 * their leases lapse; Redis down, every call is refused (fail closed), and calls run again once
 * Redis is back.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FleetBudgetTest {
  @RegisterExtension
  static final LocalRedis REDIS = LocalRedis.perTest();

  private static final int K = 3;
  private static final RedisSettings SETTINGS =
      RedisSettings.DEFAULT.withCommandTimeout(Duration.ofSeconds(1));
  private static final String HOLD = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
      + "\"params\":{\"name\":\"holder_hold\",\"arguments\":{}}}";

  @BeforeEach
  void up() {
    Holder.reset();
  }

  @AfterEach
  void release() {
    Holder.release.countDown();
  }

  private static Fleet fleet(Duration lease) {
    return new Fleet(REDIS.url(), 2, SETTINGS, options -> options,
        (redis, builder) -> builder.middleware(redis.budget("calls", K, lease)));
  }

  @Test
  void acrossInstancesNoMoreThanTheBudgetRunAndTheRestAreToldToRetry() throws Exception {
    try (Fleet fleet = fleet(Duration.ofSeconds(30))) {
      // A session per call: the calls of one session may be answered one at a time.
      String[] sessions = new String[8];
      for (int i = 0; i < 8; i++) {
        sessions[i] = fleet.initialize(i % 2);
      }
      List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
      java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(8);
      for (int i = 0; i < 8; i++) {
        int call = i;
        calls.add(CompletableFuture.supplyAsync(() -> {
          try {
            return fleet.post(call % 2, HOLD, "Mcp-Session-Id", sessions[call]);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, clients));
      }
      Fleet.await("every call past the budget refused", 30,
          () -> calls.stream().filter(CompletableFuture::isDone).count() == 8 - K);
      Fleet.await("the budget's calls inside the handler", 30, () -> Holder.entered.get() == K);
      List<String> refusals = calls.stream().filter(CompletableFuture::isDone)
          .map(CompletableFuture::join).map(HttpResponse::body).toList();
      assertThat(refusals).hasSize(8 - K).allSatisfy(body -> assertThat(body)
          .contains("<tool_error code=\\\"SERVER_BUSY\\\"", "The server is busy: " + K
              + " calls are running across its instances, the most it runs at once.",
              "<retry_after>1 second</retry_after>", "<detail key=\\\"budget\\\">calls</detail>",
              "\"isError\":true"));

      Holder.release.countDown();
      for (CompletableFuture<HttpResponse<String>> call : calls) {
        call.get(30, TimeUnit.SECONDS);
      }
      clients.shutdown();
      assertThat(Holder.most.get()).as("the most calls inside the handler at once").isEqualTo(K);
      // The permits came back: a full budget's worth runs again.
      Holder.reset();
      Holder.release.countDown();
      for (int i = 0; i < K + 1; i++) {
        assertThat(fleet.post(i % 2, HOLD, "Mcp-Session-Id", sessions[i % 2]).body())
            .contains("held");
      }
    }
  }

  @Test
  void aDeadInstancesPermitsComeBackWhenTheirLeasesLapse() throws Exception {
    Duration lease = Duration.ofSeconds(1);
    try (Fleet fleet = fleet(lease); FusionRedis dead = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      String session = fleet.initialize(0);
      FleetBudget doomed = dead.budget("calls", K, lease);
      List<Thread> held = new ArrayList<>();
      for (int i = 0; i < K; i++) {
        Thread thread = new Thread(() -> {
          try {
            doomed.invoke(null, call -> Holder.release.await(30, TimeUnit.SECONDS));
          } catch (Exception ignored) {
            // The connection closed under it: the permit is never given back.
          }
        });
        thread.setDaemon(true);
        thread.start();
        held.add(thread);
      }
      Fleet.await("the doomed instance's calls hold the budget", 30, () -> doomed.running() == K);
      assertThat(fleet.post(0, HOLD, "Mcp-Session-Id", session).body())
          .contains("calls are running across its instances");

      dead.close(); // like a SIGKILL: it stops renewing and never gives its permits back
      Holder.release.countDown();
      Fleet.await("the live instance runs calls again once the dead one's leases lapse", 30, () -> {
        try {
          return fleet.post(0, HOLD, "Mcp-Session-Id", session).body().contains("held");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      for (Thread thread : held) {
        thread.join(10_000);
      }
    }
  }

  @Test
  void whileRedisIsDownEveryCallIsRefusedAndCallsRunAgainWhenItIsBack() throws Exception {
    try (Fleet fleet = fleet(Duration.ofSeconds(30))) {
      String session = fleet.initialize(0);
      Holder.release.countDown();
      assertThat(fleet.post(0, HOLD, "Mcp-Session-Id", session).body()).contains("held");

      REDIS.stop();

      long started = System.nanoTime();
      String refused = fleet.post(0, HOLD, "Mcp-Session-Id", session).body();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
      assertThat(refused).contains("<tool_error code=\\\"SERVER_BUSY\\\"",
          "The server is busy: it cannot check the budget of calls its instances share now (the"
              + " store that keeps it does not answer), so it runs no call that needs it.",
          "<retry_after>1 second</retry_after>", "<detail key=\\\"state\\\">unavailable</detail>");
      assertThat(Holder.entered.get()).as("no call ran without the budget").isEqualTo(1);

      REDIS.start();

      Fleet.await("calls run again once Redis is back", 30, () -> {
        try {
          return fleet.post(0, HOLD, "Mcp-Session-Id", session).body().contains("held");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
    }
  }

  @Test
  void aBudgetIsCheckedWhenItIsMade() {
    try (FusionRedis redis = FusionRedis.connect(REDIS.url(), SETTINGS)) {
      assertThatThrownBy(() -> redis.budget("calls", 0, Duration.ofSeconds(1)))
          .hasMessage("Budget calls: maxConcurrent must be at least 1, got 0");
      assertThatThrownBy(() -> redis.budget("a{b}", 1, Duration.ofSeconds(1)))
          .hasMessage("A budget's name must be non-blank and contain no '{' or '}', got 'a{b}'");
      assertThatThrownBy(() -> redis.budget("calls", 1, Duration.ofMillis(5)))
          .hasMessage("Budget calls: the lease must be at least 30 ms, got PT0.005S");
    }
  }
}
