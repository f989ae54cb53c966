package dev.mcpfusion.samples.billing;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.task.TaskOptions;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.redis.FusionRedis;
import dev.mcpfusion.redis.RedisSettings;
import java.util.function.UnaryOperator;

/**
 * The billing connector as one instance of a fleet ({@code --redis URL}): its 2025-era sessions,
 * resumable streams and tasks live in Redis, so any instance serves any request, its resource
 * subscriptions are shared there (a mutation through one instance notifies a subscriber served by
 * another). Only this class names fusion-redis, and {@link BillingMain} calls it only for
 * {@code --redis}: without it, no Redis class is loaded.
 */
final class BillingFleet {
  private BillingFleet() {}

  /**
   * Connects to the Redis at {@code url}, keeps the tasks and resource subscriptions of {@code
   * builder} there, and returns what makes the HTTP options keep sessions and event streams there
   * too.
   *
   * @throws IllegalArgumentException when {@code url} is not a Redis URL or Redis does not answer
   */
  static UnaryOperator<HttpOptions> share(String url, FusionServer.Builder builder) {
    return share(url, RedisSettings.DEFAULT.withNamespace("billing"), builder, 0, null);
  }

  /** As {@link #share(String, FusionServer.Builder)}, with these settings. */
  static UnaryOperator<HttpOptions> share(String url, RedisSettings settings,
      FusionServer.Builder builder) {
    return share(url, settings, builder, 0, null);
  }

  /**
   * As {@link #share(String, FusionServer.Builder)}, and when {@code permits} is above 0, every
   * tool call is under a rate limit of {@code permits} calls per {@code per} for each caller,
   * counted across the fleet ({@code --rate-limit N/PERIOD}).
   */
  static UnaryOperator<HttpOptions> share(String url, FusionServer.Builder builder, int permits,
      java.time.Duration per) {
    return share(url, RedisSettings.DEFAULT.withNamespace("billing"), builder, permits, per);
  }

  private static UnaryOperator<HttpOptions> share(String url, RedisSettings settings,
      FusionServer.Builder builder, int permits, java.time.Duration per) {
    FusionRedis redis;
    try {
      redis = FusionRedis.connect(url, settings);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(redis::close, "billing-redis-close"));
    builder.tasks(TaskOptions.defaults().store(redis.taskStore()))
        .subscriptionBus(redis.subscriptionBus());
    if (permits > 0) {
      builder.middleware(redis.rateLimit("calls", permits, per).perCaller());
    }
    return options -> options.eventStore(redis.eventStore()).sessionStore(redis.sessionStore());
  }
}
