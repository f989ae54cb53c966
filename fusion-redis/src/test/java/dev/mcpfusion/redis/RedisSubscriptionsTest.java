package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The subscription bus on its own: two connections (two instances) share subscriptions and hear
 * each other's mutations; a subscription announced while an instance rereads its copy from Redis
 * survives the reread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisSubscriptionsTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  @BeforeEach
  void flush() throws Exception {
    REDIS.flushAll();
  }

  private static void await(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("%s within 20 s", what).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  @Test
  void twoInstancesShareSubscriptionsAndHearEachOthersMutations() throws Exception {
    try (FusionRedis a = FusionRedis.connect(REDIS.url()); FusionRedis b = FusionRedis.connect(REDIS.url())) {
      RedisSubscriptions onA = (RedisSubscriptions) a.subscriptionBus();
      RedisSubscriptions onB = (RedisSubscriptions) b.subscriptionBus();
      List<String> heardOnB = new CopyOnWriteArrayList<>();
      onA.start((domains, scope) -> { });
      onB.start((domains, scope) -> heardOnB.add(scope + " " + domains));

      onA.subscribe("s1", "notes://n1", "=acme");
      await("B knows A's subscription", () -> onB.subscriptions("s1").equals(Map.of("notes://n1", "=acme")));
      onA.publish(List.of("notes.*"), "=acme");
      await("B hears A's mutation", () -> heardOnB.equals(List.of("=acme [notes.*]")));

      onB.unsubscribe("s1", "notes://n1");
      await("A forgets the subscription ended on B", () -> onA.subscriptions("s1").isEmpty());
    }
  }

  @Test
  void aSubscriptionAnnouncedWhileTheCopyIsRereadSurvivesTheReread() throws Exception {
    try (FusionRedis a = FusionRedis.connect(REDIS.url()); FusionRedis b = FusionRedis.connect(REDIS.url())) {
      RedisSubscriptions onA = (RedisSubscriptions) a.subscriptionBus();
      RedisSubscriptions onB = (RedisSubscriptions) b.subscriptionBus();
      onA.start((domains, scope) -> { });
      onB.start((domains, scope) -> { });
      // B reads Redis (no subscription yet); before it replaces its copy with what it read, A
      // subscribes and B hears it.
      onB.reload(() -> {
        onA.subscribe("s1", "notes://n1", "");
        try {
          await("B hears the subscription", () -> !onB.subscriptions("s1").isEmpty());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      assertThat(onB.subscriptions("s1")).isEqualTo(Map.of("notes://n1", ""));
    }
  }
}
