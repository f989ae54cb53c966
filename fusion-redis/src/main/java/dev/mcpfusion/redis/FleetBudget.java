package dev.mcpfusion.redis;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.wire.Codes;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A budget of concurrent calls shared by every instance of a connector ({@link
 * FusionRedis#budget}): at most {@link #maxConcurrent} calls run at once across the fleet, and a
 * call beyond that is refused at once with a {@code SERVER_BUSY} the agent reads, with when to
 * retry. Register it as middleware, server-wide ({@code FusionServer.Builder.middleware}) or for
 * the actions that need it ({@code @Use}).
 *
 * <p>The permits are a sorted set in Redis, each a running call whose score is when its lease
 * lapses: taking one is one Lua script (drop the lapsed leases, count, add), giving it back one
 * {@code ZREM}, and this instance renews the leases of its running calls every third of the lease.
 * An instance that dies (SIGKILL) holds its permits only until their leases lapse. Redis down: the
 * budget fails closed, every call it guards is refused with {@code SERVER_BUSY} within the command
 * timeout, and calls run again once Redis answers, without a restart. A running call whose lease
 * could not be renewed for a whole lease (Redis down that long) no longer counts.
 */
public final class FleetBudget implements FusionMiddleware {
  private static final Logger LOG = LoggerFactory.getLogger(FleetBudget.class);
  /** How long an agent is told to wait before it tries again. */
  static final Duration RETRY = Duration.ofSeconds(1);
  /** Drops the lapsed leases and, below the budget, adds this call's: 1, or 0 when full. */
  private static final String TAKE = """
      local now = redis.call('TIME')
      local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
      if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
        return 0
      end
      redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[2]), ARGV[3])
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
      return 1
      """;
  /** Extends the leases still held (never re-adds one that lapsed). */
  private static final String RENEW = """
      local now = redis.call('TIME')
      local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
      for i = 2, #ARGV do
        redis.call('ZADD', KEYS[1], 'XX', ms + tonumber(ARGV[1]), ARGV[i])
      end
      redis.call('PEXPIRE', KEYS[1], ARGV[1])
      return 1
      """;

  private final FusionRedis redis;
  private final String name;
  private final int maxConcurrent;
  private final String key;
  private final String leaseMs;
  private final String limit;
  private final AtomicLong calls = new AtomicLong();
  /** The permits this instance's running calls hold. */
  private final Set<String> held = ConcurrentHashMap.newKeySet();

  FleetBudget(FusionRedis redis, String name, int maxConcurrent, Duration lease,
      ScheduledExecutorService renewals) {
    this.redis = redis;
    this.name = name;
    this.maxConcurrent = maxConcurrent;
    this.key = redis.key("budget", name);
    this.leaseMs = String.valueOf(lease.toMillis());
    this.limit = String.valueOf(maxConcurrent);
    long period = Math.max(10, lease.toMillis() / 3);
    renewals.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
  }

  /** The budget's name, in its key and in the refusal the agent reads. */
  public String name() {
    return name;
  }

  /** The calls that may run at once across the fleet. */
  public int maxConcurrent() {
    return maxConcurrent;
  }

  /** The calls of this instance holding a permit now. */
  public int running() {
    return held.size();
  }

  @Override
  public Object invoke(Invocation call, Chain next) throws Exception {
    String permit = redis.instance() + ":" + calls.incrementAndGet();
    long taken;
    try {
      taken = redis.script("take a permit of the budget " + name, TAKE, new String[] {key}, limit,
          leaseMs, permit);
    } catch (RedisUnavailableException e) {
      LOG.warn("The fleet budget {} cannot be checked; refusing the call", name, e);
      throw refusal("it cannot check the budget of calls its instances share now (the store"
          + " that keeps it does not answer), so it runs no call that needs it.", "unavailable");
    }
    if (taken == 0) {
      throw refusal(maxConcurrent + " calls are running across its instances, the most it runs"
          + " at once.", "full");
    }
    held.add(permit);
    try {
      return next.proceed(call);
    } finally {
      held.remove(permit);
      try {
        redis.run("give back a permit of the budget " + name, commands -> commands.zrem(key, permit));
      } catch (RedisUnavailableException e) {
        LOG.debug("Could not give back permit {}; its lease lapses by itself", permit, e);
      }
    }
  }

  private FusionError refusal(String why, String state) {
    return FusionError.of(Codes.SERVER_BUSY, "The server is busy: " + why)
        .recovery("Retry after the time below, one call at a time; if the user is waiting, tell"
            + " the user the server is busy.")
        .detail("budget", name)
        .detail("limit", maxConcurrent)
        .detail("state", state)
        .retryAfter(RETRY);
  }

  /** Extends the leases of this instance's running calls; Redis down: the next round tries. */
  private void renew() {
    if (held.isEmpty()) {
      return;
    }
    String[] args = new String[1 + held.size()];
    args[0] = leaseMs;
    int i = 1;
    for (String permit : held) {
      if (i == args.length) {
        break;
      }
      args[i++] = permit;
    }
    try {
      redis.script("renew the permits of the budget " + name, RENEW, new String[] {key},
          java.util.Arrays.copyOf(args, i));
    } catch (RuntimeException e) {
      LOG.debug("Could not renew the permits of budget {}; trying again", name, e);
    }
  }
}
