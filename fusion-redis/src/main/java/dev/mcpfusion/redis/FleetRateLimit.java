package dev.mcpfusion.redis;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.wire.Codes;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rate limit shared by every instance of a connector ({@link FusionRedis#rateLimit}): at most
 * {@link #permits} calls in any {@link #per period} across the fleet, or {@link #perCaller() for
 * each caller}; a call beyond it is refused before its handler runs, with a {@code SERVER_BUSY}
 * that tells the agent when the next permit frees. Register it as middleware, server-wide
 * ({@code FusionServer.Builder.middleware}) or for the actions that need it ({@code @Use}).
 *
 * <p>A sliding window: the calls admitted in the last period are a sorted set in Redis scored by
 * when they were admitted (Redis's clock, so the instances' clocks do not matter), and taking a
 * permit is one Lua script (drop what left the window, count, add). A refused call is not counted.
 * The retry hint is when the oldest call in the window leaves it, in whole seconds, at least one.
 * Redis down: the limit fails closed, every call it guards is refused with {@code SERVER_BUSY}
 * within the command timeout, and calls run again once Redis answers, without a restart.
 */
public final class FleetRateLimit implements FusionMiddleware {
  private static final Logger LOG = LoggerFactory.getLogger(FleetRateLimit.class);
  /** The most permits of a limit: the window keeps one entry per admitted call. */
  static final int MAX_PERMITS = 100_000;
  /**
   * Drops the calls older than the period and, below the limit, adds this one: 0; at the limit,
   * the milliseconds until the oldest call leaves the window (at least 1).
   */
  private static final String TAKE = """
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      local period = tonumber(ARGV[2])
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - period)
      if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
        redis.call('ZADD', KEYS[1], now, ARGV[3])
        redis.call('PEXPIRE', KEYS[1], period)
        return 0
      end
      local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
      return math.max(1, tonumber(oldest[2]) + period - now)
      """;

  private final FusionRedis redis;
  private final String name;
  private final int permits;
  private final Duration per;
  private final boolean perCaller;
  private final String periodMs;
  private final String limit;
  private final AtomicLong calls = new AtomicLong();

  FleetRateLimit(FusionRedis redis, String name, int permits, Duration per, boolean perCaller) {
    this.redis = redis;
    this.name = name;
    this.permits = permits;
    this.per = per;
    this.perCaller = perCaller;
    this.periodMs = String.valueOf(per.toMillis());
    this.limit = String.valueOf(permits);
  }

  /** Checks what {@link FusionRedis#rateLimit} was given, naming the limit and the fix. */
  static void check(String name, int permits, Duration per) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(per, "per");
    if (name.isBlank() || name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
      throw new IllegalArgumentException(
          "A rate limit's name must be non-blank and contain no '{' or '}', got '" + name + "'");
    }
    if (permits < 1 || permits > MAX_PERMITS) {
      throw new IllegalArgumentException("Rate limit " + name + ": permits must be between 1 and "
          + MAX_PERMITS + ", got " + permits);
    }
    if (per.compareTo(Duration.ofSeconds(1)) < 0 || per.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException("Rate limit " + name + ": the period must be a whole"
          + " number of seconds, at least 1, got " + per);
    }
  }

  /**
   * The same limit counted for each caller apart ({@code Caller.subject()} of the request's
   * authenticated caller; every unauthenticated call shares the key of the local caller), under
   * the same name: one caller's calls never use another's permits.
   */
  public FleetRateLimit perCaller() {
    return new FleetRateLimit(redis, name, permits, per, true);
  }

  /** The limit's name, in its key and in the refusal the agent reads. */
  public String name() {
    return name;
  }

  /** The calls admitted per period. */
  public int permits() {
    return permits;
  }

  /** The period of the window. */
  public Duration per() {
    return per;
  }

  /** Whether each caller has its own window ({@link #perCaller()}). */
  public boolean isPerCaller() {
    return perCaller;
  }

  @Override
  public Object invoke(Invocation call, Chain next) throws Exception {
    String key = perCaller ? redis.key("rate", name, "caller", subject(call))
        : redis.key("rate", name);
    long waitMs;
    try {
      waitMs = redis.script("take a permit of the rate limit " + name, TAKE, new String[] {key},
          limit, periodMs, redis.instance() + ":" + calls.incrementAndGet());
    } catch (RedisUnavailableException e) {
      LOG.warn("The fleet rate limit {} cannot be checked; refusing the call", name, e);
      throw refusal("it cannot check the rate limit its instances share now (the store that keeps"
          + " it does not answer), so it runs no call that needs it.", "unavailable", 1);
    }
    if (waitMs > 0) {
      String window = seconds(per.toSeconds());
      throw refusal("it takes at most " + permits + (permits == 1 ? " call" : " calls") + " per "
          + window + (perCaller ? " from each caller" : "") + " across its instances, and "
          + permits + (perCaller ? " came from this caller" : " were made") + " in the last "
          + window + ".", "limited", (waitMs + 999) / 1000);
    }
    return next.proceed(call);
  }

  private static String subject(Invocation call) {
    Caller caller = call.request().caller();
    return caller.subject().map(s -> "s:" + s).orElse("local");
  }

  private static String seconds(long n) {
    return n == 1 ? "second" : n + " seconds";
  }

  private FusionError refusal(String why, String state, long retrySeconds) {
    return FusionError.of(Codes.SERVER_BUSY, "The server is busy: " + why)
        .recovery("Wait for the time below before the next call; if the user is waiting, tell the"
            + " user the server limits how often it is called.")
        .detail("rate_limit", name)
        .detail("permits", permits)
        .detail("per_seconds", per.toSeconds())
        .detail("state", state)
        .retryAfter(Duration.ofSeconds(Math.max(1, retrySeconds)));
  }
}
