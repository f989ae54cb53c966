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
 */
final class RedisSubscriptions implements SubscriptionBus {
  private static final Logger LOG = LoggerFactory.getLogger(RedisSubscriptions.class);
  /** How often the copy is read again from Redis. */
  static final long RELOAD = TimeUnit.SECONDS.toMillis(30);
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
        // Also after a reconnection: what was announced while the channel was down is read here.
        worker.execute(RedisSubscriptions.this::reload);
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

  /** Reads every session's subscriptions from Redis into the copy; Redis down: the next try does. */
  void reload() {
    reload(() -> {});
  }

  /**
   * {@link #reload()}, running {@code afterRead} between reading Redis and replacing the copy; one
   * reload at a time.
   */
  void reload(Runnable afterRead) {
    synchronized (reloading) {
      reloadOnce(afterRead);
    }
  }

  private void reloadOnce(Runnable afterRead) {
    String match = redis.key("subs", "*");
    Map<String, Map<String, String>> read = new HashMap<>();
    synchronized (copying) {
      heardWhileReading = new ArrayList<>();
    }
    try {
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
      return;
    }
    afterRead.run();
    synchronized (copying) {
      copy.keySet().retainAll(read.keySet());
      copy.putAll(read);
      // What was announced while Redis was read may be missing from what was read: apply it again.
      heardWhileReading.forEach(this::apply);
      heardWhileReading = null;
    }
  }

  /** Stops listening (the connection closes). */
  synchronized void close() {
    worker.shutdownNow();
    if (pubSub != null) {
      pubSub.close();
    }
  }
}
