package dev.mcpfusion.redis;

import dev.mcpfusion.core.SubscriptionBus;
import dev.mcpfusion.json.Json;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SubscriptionBus} on Redis: each session's subscriptions a hash ({@code uri → scope})
 * that expires with the session, and one pub/sub channel per namespace on which every instance
 * announces subscriptions, unsubscriptions and mutations. Every instance keeps a copy of all the
 * subscriptions in memory, updated by the channel's messages in the order Redis received them
 * (so a subscription made through one instance is known everywhere before a mutation announced
 * after it), and read again from Redis whenever the channel is (re)subscribed and every
 * {@link #RELOAD}, which also drops the sessions that ended or expired. A subscription announced
 * while the copy is being read is applied again on top of what was read, so none is lost to it.
 *
 * <p>Redis down: recording a subscription and announcing a mutation fail within the command
 * timeout; a mutation announced meanwhile reaches no subscriber. Lettuce subscribes the channel
 * again once Redis is back, and the copy is read again then, without a restart.
 *
 * <p>When the channel is subscribed again the copy can no longer vouch for what it held (a
 * restarted Redis may have lost it), so it is emptied and keeps only what the channel announces
 * from then on until a read of Redis succeeds; a read that fails then (the command connection may
 * come back after the pub/sub one) is retried after {@link #RETRY_FIRST} ms, doubling up to
 * {@link #RETRY_MAX} ms. Meanwhile an update is missed rather than sent for a subscription Redis
 * no longer has: reading Redis before each delivery instead would hold the one delivery thread for
 * up to a command timeout per mutation while the command connection is down.
 */
final class RedisSubscriptions implements SubscriptionBus {
  private static final Logger LOG = LoggerFactory.getLogger(RedisSubscriptions.class);
  /** How often the copy is read again from Redis. */
  static final long RELOAD = TimeUnit.SECONDS.toMillis(30);
  /** The first wait before retrying a failed read of the copy that followed a (re)subscription. */
  static final long RETRY_FIRST = 100;
  /** The longest wait between those reads. */
  static final long RETRY_MAX = 2_000;
  /** Announced mutations waiting for delivery; past this the newest are dropped (and logged). */
  private static final int BACKLOG = 10_000;
  /** HSET the subscription and the session's time-to-live, then announce it, in one round trip. */
  private static final String SUBSCRIBE = """
      redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
      redis.call('PUBLISH', KEYS[2], ARGV[4])
      return 1
      """;
  private static final String UNSUBSCRIBE = """
      redis.call('HDEL', KEYS[1], ARGV[1])
      redis.call('PUBLISH', KEYS[2], ARGV[2])
      return 1
      """;

  private final FusionRedis redis;
  private final String channel;
  private final String ttlMs;
  /** Every session's subscriptions, as the channel told this instance. */
  private final Map<String, Map<String, String>> copy = new ConcurrentHashMap<>();
  private final ScheduledThreadPoolExecutor worker;
  private StatefulRedisPubSubConnection<String, String> pubSub;
  /** Held by the one reload that runs. */
  private final Object reloading = new Object();
  /** Guards applying a message against replacing the copy with what a reload read. */
  private final Object copying = new Object();
  /** The subscription messages heard while a reload reads, or {@code null}: none reads; guarded by copying. */
  private List<List<?>> heardWhileReading;
  /** How often the channel was (re)subscribed (a read begun before the last is stale); guarded by copying. */
  private long subscribedTimes;
  /** The retry waiting after a failed read that followed a (re)subscription; on the worker only. */
  private ScheduledFuture<?> retry;
  /** Whether the current outage was logged (once per outage); touched on the worker only. */
  private boolean warned;
  /** Runs before each read of Redis: a test fails a read with it, as if the command connection were down. */
  volatile Runnable beforeRead = () -> { };
  private volatile Receiver receiver;

  RedisSubscriptions(FusionRedis redis) {
    this.redis = redis;
    this.channel = redis.key("subscriptions");
    this.ttlMs = String.valueOf(redis.settings().sessionTtl().toMillis());
    this.worker = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "fusion-redis-subscriptions");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** The key of one session's subscriptions (the session store's touch extends it with the session). */
  static String key(FusionRedis redis, String sessionId) {
    return redis.key("subs", sessionId);
  }

  @Override
  public void subscribe(String sessionId, String uri, String scope) {
    redis.script("record a subscription", SUBSCRIBE,
        new String[] {key(redis, sessionId), channel}, uri, scope, ttlMs,
        Json.write(List.of("s", sessionId, uri, scope)));
  }

  @Override
  public void unsubscribe(String sessionId, String uri) {
    redis.script("end a subscription", UNSUBSCRIBE, new String[] {key(redis, sessionId), channel},
        uri, Json.write(List.of("u", sessionId, uri)));
  }

  @Override
  public Map<String, String> subscriptions(String sessionId) {
    Map<String, String> uris = copy.get(sessionId);
    return uris == null ? Map.of() : uris;
  }

  @Override
  public void publish(List<String> domains, String scope) {
    String message = Json.write(List.of("m", scope, domains));
    redis.run("announce a mutation", commands -> commands.publish(channel, message));
  }

  @Override
  public synchronized void start(Receiver receiver) {
    if (this.receiver != null) {
      throw new IllegalStateException("This subscription bus already serves a server; make one"
          + " per FusionServer with FusionRedis.subscriptionBus()");
    }
    this.receiver = receiver;
    pubSub = redis.connectPubSub();
    pubSub.addListener(new RedisPubSubAdapter<>() {
      @Override
      public void message(String from, String message) {
        heard(message);
      }

      @Override
      public void subscribed(String from, long count) {
        // Also after a reconnection: what was announced while the channel was down is read here,
        // and until then the copy holds only what the channel announces from now on.
        synchronized (copying) {
          subscribedTimes++;
          copy.clear();
        }
        execute(() -> reloadUntilRead(RETRY_FIRST));
      }
    });
    try {
      pubSub.sync().subscribe(channel);
    } catch (RedisException e) {
      // Redis is down: Lettuce subscribes once it is back, and the copy is read then.
      LOG.warn("Could not subscribe to the subscription channel yet; retrying in the background", e);
    }
    worker.scheduleWithFixedDelay(this::reload, RELOAD, RELOAD, TimeUnit.MILLISECONDS);
  }

  /**
   * One message of the channel, on Lettuce's thread: a subscription updates the copy at once (so
   * it is known before any later mutation); a mutation is delivered on this bus's thread.
   */
  private void heard(String message) {
    if (!(Json.parse(message) instanceof List<?> parts) || parts.isEmpty()) {
      return;
    }
    switch (String.valueOf(parts.get(0))) {
      case "s", "u" -> {
        synchronized (copying) {
          apply(parts);
          if (heardWhileReading != null) {
            heardWhileReading.add(parts);
          }
        }
      }
      case "m" -> {
        String scope = (String) parts.get(1);
        List<String> domains = new ArrayList<>();
        for (Object domain : (List<?>) parts.get(2)) {
          domains.add((String) domain);
        }
        if (worker.getQueue().size() >= BACKLOG) {
          LOG.warn("{} announced mutations wait for delivery; dropping one of {}", BACKLOG, domains);
          return;
        }
        worker.execute(() -> deliver(domains, scope));
      }
      default -> LOG.debug("Ignoring an unknown message on {}: {}", channel, message);
    }
  }

  /** Applies a subscription ({@code s}) or unsubscription ({@code u}) message to the copy. */
  private void apply(List<?> parts) {
    if (parts.get(0).equals("s")) {
      copy.computeIfAbsent((String) parts.get(1), s -> new ConcurrentHashMap<>())
          .put((String) parts.get(2), (String) parts.get(3));
      return;
    }
    Map<String, String> uris = copy.get((String) parts.get(1));
    if (uris != null) {
      uris.remove((String) parts.get(2));
    }
  }

  private void deliver(List<String> domains, String scope) {
    try {
      receiver.mutated(domains, scope);
    } catch (RuntimeException e) {
      LOG.warn("Delivering a mutation of {} failed", domains, e);
    }
  }

  /** Runs {@code task} on the worker, unless this bus was closed. */
  private void execute(Runnable task) {
    try {
      worker.execute(task);
    } catch (RejectedExecutionException closed) {
      LOG.debug("The subscription bus is closed; not reading the subscriptions again");
    }
  }

  /**
   * On the worker, after the channel was (re)subscribed: reads the copy, and if that fails tries
   * again after {@code delay} ms, then twice as long each time up to {@link #RETRY_MAX}, until a
   * read succeeds. One such retry waits at a time; a new (re)subscription starts over.
   */
  private void reloadUntilRead(long delay) {
    if (retry != null) {
      retry.cancel(false);
      retry = null;
    }
    if (reload()) {
      if (warned) {
        LOG.info("Read the subscriptions from Redis again; updates reach every subscriber again");
        warned = false;
      }
      return;
    }
    if (!warned) {
      LOG.warn("Could not read the subscriptions from Redis after subscribing its channel again;"
          + " retrying within {} ms, and until then only subscriptions announced since are"
          + " notified", RETRY_MAX);
      warned = true;
    }
    try {
      retry = worker.schedule(() -> reloadUntilRead(Math.min(delay * 2, RETRY_MAX)), delay,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      LOG.debug("The subscription bus is closed; not reading the subscriptions again");
    }
  }

  /**
   * Reads every session's subscriptions from Redis into the copy; whether it did (Redis down, or
   * the channel subscribed again while it read: the next try does).
   */
  boolean reload() {
    return reload(() -> {});
  }

  /**
   * {@link #reload()}, running {@code afterRead} between reading Redis and replacing the copy; one
   * reload at a time.
   */
  boolean reload(Runnable afterRead) {
    synchronized (reloading) {
      return reloadOnce(afterRead);
    }
  }

  private boolean reloadOnce(Runnable afterRead) {
    String match = redis.key("subs", "*");
    Map<String, Map<String, String>> read = new HashMap<>();
    long subscribedBefore;
    synchronized (copying) {
      heardWhileReading = new ArrayList<>();
      subscribedBefore = subscribedTimes;
    }
    try {
      beforeRead.run();
      ScanCursor cursor = ScanCursor.INITIAL;
      do {
        ScanCursor at = cursor;
        KeyScanCursor<String> page = redis.run("read the subscriptions",
            commands -> commands.scan(at, ScanArgs.Builder.matches(match).limit(500)));
        for (String key : page.getKeys()) {
          Map<String, String> uris = redis.run("read the subscriptions", c -> c.hgetall(key));
          if (!uris.isEmpty()) {
            read.put(key.substring(match.length() - 1), new ConcurrentHashMap<>(uris));
          }
        }
        cursor = page;
      } while (!cursor.isFinished());
    } catch (RedisUnavailableException e) {
      synchronized (copying) {
        heardWhileReading = null;
      }
      LOG.debug("Could not read the subscriptions; the next reload tries again", e);
      return false;
    }
    afterRead.run();
    synchronized (copying) {
      if (subscribedTimes != subscribedBefore) {
        // Read before the channel was subscribed again: it may hold what a restarted Redis lost.
        heardWhileReading = null;
        return false;
      }
      copy.keySet().retainAll(read.keySet());
      copy.putAll(read);
      // What was announced while Redis was read may be missing from what was read: apply it again.
      heardWhileReading.forEach(this::apply);
      heardWhileReading = null;
    }
    return true;
  }

  /** Stops listening (the connection closes). */
  synchronized void close() {
    worker.shutdownNow();
    if (pubSub != null) {
      pubSub.close();
    }
  }
}
