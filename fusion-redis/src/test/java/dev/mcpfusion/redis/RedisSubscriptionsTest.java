package dev.mcpfusion.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.KillArgs;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The subscription bus on its own: two connections (two instances) share subscriptions and hear
 * each other's mutations; a subscription announced while an instance rereads its copy from Redis
 * survives the reread; and once the channel is subscribed again, a subscription a restarted Redis
 * lost is forgotten and a failed reread is retried soon, both with that instance's first reread
 * failed on purpose (as when its command connection comes back after its pub/sub one).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisSubscriptionsTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  @BeforeEach
  void flush() throws Exception {
    REDIS.start();
    REDIS.flushAll();
  }

  /** Fails the first {@code reads} reads of Redis by {@code bus}, counting every read in {@code counted}. */
  private static void failFirstReads(RedisSubscriptions bus, int reads, AtomicInteger counted) {
    bus.beforeRead = () -> {
      if (counted.getAndIncrement() < reads) {
        throw new RedisUnavailableException("the command connection is not back yet (test)", null);
      }
    };
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
      Fleet.await("B knows A's subscription", 20, () -> onB.subscriptions("s1").equals(Map.of("notes://n1", "=acme")));
      onA.publish(List.of("notes.*"), "=acme");
      Fleet.await("B hears A's mutation", 20, () -> heardOnB.equals(List.of("=acme [notes.*]")));

      onB.unsubscribe("s1", "notes://n1");
      Fleet.await("A forgets the subscription ended on B", 20, () -> onA.subscriptions("s1").isEmpty());
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
          Fleet.await("B hears the subscription", 20, () -> !onB.subscriptions("s1").isEmpty());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      assertThat(onB.subscriptions("s1")).isEqualTo(Map.of("notes://n1", ""));
    }
  }

  @Test
  void aSubscriptionARestartedRedisLostIsForgottenThoughTheFirstRereadAfterItFails()
      throws Exception {
    try (FusionRedis a = FusionRedis.connect(REDIS.url()); FusionRedis b = FusionRedis.connect(REDIS.url())) {
      Buses buses = subscribedOnA(a, b);
      RedisSubscriptions onA = buses.onA();
      RedisSubscriptions onB = buses.onB();
      AtomicInteger reads = new AtomicInteger();
      failFirstReads(onB, 1, reads);

      REDIS.stop();
      REDIS.start();

      Fleet.await("A records a subscription in the restarted Redis", 20, () -> {
        try {
          onA.subscribe("s1", "notes://n2", "");
          return true;
        } catch (RedisUnavailableException notYet) {
          return false;
        }
      });
      Fleet.await("B's first reread after the restart ran (and failed)", 20, () -> reads.get() > 0);
      Fleet.await("B knows the new subscription", 20, () -> onB.subscriptions("s1").containsKey("notes://n2"));
      assertThat(onB.subscriptions("s1")).as("not the one the restarted Redis lost")
          .isEqualTo(Map.of("notes://n2", ""));
    }
  }

  @Test
  void aRereadThatFailsAfterTheChannelIsSubscribedAgainIsRetriedLongBeforeThePeriodicOne()
      throws Exception {
    try (FusionRedis a = FusionRedis.connect(REDIS.url()); FusionRedis b = FusionRedis.connect(REDIS.url())) {
      Buses buses = subscribedOnA(a, b);
      RedisSubscriptions onA = buses.onA();
      RedisSubscriptions onB = buses.onB();
      AtomicInteger reads = new AtomicInteger();
      failFirstReads(onB, 3, reads);

      // Redis keeps the subscription; only the pub/sub connections drop, and Lettuce reconnects.
      a.run("drop the pub/sub connections", c -> c.clientKill(KillArgs.Builder.typePubsub()));

      Fleet.await("B's first three rereads ran (and failed)", 20, () -> reads.get() >= 3);
      // Within 20 s, while the periodic reread is 30 s away: only a retry reads it back.
      Fleet.await("B reads the subscription back", 20, () -> onB.subscriptions("s1").equals(Map.of("notes://n1", "")));
      assertThat(reads).as("rereads, each failed one retried once").hasValue(4);
    }
  }

  /** The two instances' buses: {@code subscriptionBus()} makes a new one at each call. */
  private record Buses(RedisSubscriptions onA, RedisSubscriptions onB) {}

  /** Starts both instances' buses and subscribes session s1 to notes://n1 through A, until B knows. */
  private static Buses subscribedOnA(FusionRedis a, FusionRedis b) throws Exception {
    RedisSubscriptions onA = (RedisSubscriptions) a.subscriptionBus();
    RedisSubscriptions onB = (RedisSubscriptions) b.subscriptionBus();
    onA.start((domains, scope) -> { });
    onB.start((domains, scope) -> { });
    onA.subscribe("s1", "notes://n1", "");
    Fleet.await("B knows the subscription", 20, () -> onB.subscriptions("s1").equals(Map.of("notes://n1", "")));
    return new Buses(onA, onB);
  }

}
