package dev.mcpfusion.redis;

import dev.mcpfusion.core.task.TaskStore;
import dev.mcpfusion.http.EventStore;
import dev.mcpfusion.http.SessionStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * One connection to Redis shared by the stores every instance of a connector keeps there: the
 * {@link #eventStore() event store} of resumable Streamable HTTP streams, the {@link #taskStore()
 * task store}, the 2025-era {@link #sessionStore() session store}, the {@link #subscriptionBus()
 * subscription bus} that tells every instance of a mutation, fleet-wide {@link #budget
 * budgets} of concurrent calls and {@link #rateLimit rate limits}.
 *
 * <pre>{@code
 * try (FusionRedis redis = FusionRedis.connect("redis://10.0.0.5:6379")) {
 *   FusionServer server = FusionServer.builder("billing", "1.0.0")
 *       .tasks(TaskOptions.defaults().store(redis.taskStore()))
 *       .register(new BillingTools(store)).build();
 *   HttpOptions options = HttpOptions.port(8080)
 *       .eventStore(redis.eventStore()).sessionStore(redis.sessionStore());
 *   FusionHttp.serve(server, options).join();
 * }
 * }</pre>
 *
 * <p>Redis down: a store's command fails within {@link RedisSettings#commandTimeout} with a
 * {@link RedisUnavailableException} (commands are refused at once while the connection is down,
 * never queued), and the connection is re-established in the background, so the stores work again
 * as soon as Redis is back, without a restart.
 */
public final class FusionRedis implements AutoCloseable {
  /** The longest a connection's handshake may take (at least the command timeout). */
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  private final RedisSettings settings;
  private final String server;
  private final ClientResources resources;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  /** This connection's name among the instances, in the lease of the tasks it runs. */
  private final String instance = java.util.UUID.randomUUID().toString();
  /** Renews this instance's task lease and heartbeat; started with the first, guarded by this. */
  private java.util.concurrent.ScheduledExecutorService leases;
  /** The keys {@link #leases} renews; guarded by this. */
  private final java.util.Set<String> leased = new java.util.LinkedHashSet<>();
  /** The subscription buses handed out, closed with the connection; guarded by this. */
  private final java.util.List<RedisSubscriptions> buses = new java.util.ArrayList<>();
  /** Renews the leases of the fleet budgets' running calls; started with the first, guarded by this. */
  private java.util.concurrent.ScheduledExecutorService budgets;
  /** Hands clients' answers between instances; made with the first session store, guarded by this. */
  private RedisAnswers answers;
  /** Hands tasks' updates and cancels to their runners; made with the first task store, guarded by this. */
  private RedisAnswers taskMessages;

  private FusionRedis(RedisSettings settings, RedisURI uri) {
    this.settings = settings;
    this.server = uri.getHost() + ":" + uri.getPort();
    Duration timeout = settings.commandTimeout();
    // The handshake of a new connection may take longer than a command in a JVM that just started
    // (classes load, code is not yet compiled); once connected, commands get the command timeout.
    uri.setTimeout(timeout.compareTo(HANDSHAKE_TIMEOUT) > 0 ? timeout : HANDSHAKE_TIMEOUT);
    // Reconnect soon after Redis is back (Lettuce's default backs off up to 30 s).
    this.resources = ClientResources.builder()
        .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2,
            java.util.concurrent.TimeUnit.MILLISECONDS))
        .build();
    this.client = RedisClient.create(resources, uri);
    client.setOptions(ClientOptions.builder()
        .autoReconnect(true)
        // While disconnected a command fails at once instead of waiting in a queue.
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(timeout))
        .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
        .build());
    StatefulRedisConnection<String, String> connected;
    try {
      connected = client.connect();
    } catch (RedisException e) {
      shutdown();
      throw new RedisUnavailableException("Could not connect to Redis at " + server
          + "; check that it runs and the URL is right", e);
    }
    connected.setTimeout(timeout);
    this.connection = connected;
  }

  /** Connects to the Redis at {@code url} ({@code redis://host:port}) with the default settings. */
  public static FusionRedis connect(String url) {
    return connect(url, RedisSettings.DEFAULT);
  }

  /**
   * Connects to the Redis at {@code url} ({@code redis://[:password@]host:port[/database]}).
   *
   * @throws RedisUnavailableException when Redis does not answer within the command timeout
   * @throws IllegalArgumentException when {@code url} is not a Redis URL
   */
  public static FusionRedis connect(String url, RedisSettings settings) {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(settings, "settings");
    RedisURI uri;
    try {
      uri = RedisURI.create(url);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Not a Redis URL: expected redis://host:port, got '" + redacted(url) + "'", e);
    }
    return new FusionRedis(settings, uri);
  }

  /**
   * The event store of resumable Streamable HTTP streams, on Redis Streams. A streamed call's
   * stream records that this instance runs it, and this instance sends a heartbeat to Redis every
   * third of {@link RedisSettings#liveness} (6 s by default): a client resuming the stream on
   * another instance once this one stopped (its heartbeat lapsed) gets the stream's events, then
   * a retryable error saying the call's outcome is unknown.
   */
  public EventStore eventStore() {
    keepAlive(aliveKey(instance), settings.liveness(), "send this instance's heartbeat");
    return new RedisEventStore(this);
  }

  /**
   * The task store: every instance sees, answers and cancels every task. A task is run by the
   * instance that created it, which renews a lease in Redis while it is connected; a task still
   * running when its instance's lease lapses ({@link RedisSettings#taskLease}) is marked failed
   * by the next instance that reads it. A {@code tasks/update} or {@code tasks/cancel} that reaches
   * another instance is handed to the runner's handler over its own pub/sub channel.
   */
  public TaskStore taskStore() {
    keepAlive(leaseKey(instance), settings.taskLease(), "renew this instance's task lease");
    synchronized (this) {
      if (taskMessages == null) {
        taskMessages = new RedisAnswers(this, "taskmessages");
      }
    }
    return new RedisTaskStore(this, taskMessages);
  }

  /**
   * Starts keeping {@code key} alive, expiring after {@code lease} (set now, then every third of
   * it) unless it is kept already. Each key is renewed on a thread of its own, so a renewal that
   * waits for a slow Redis does not hold the other back, and no call of this instance can.
   */
  private synchronized void keepAlive(String key, Duration lease, String what) {
    if (leases == null) {
      leases = java.util.concurrent.Executors.newScheduledThreadPool(2, task -> {
        Thread thread = new Thread(task, "fusion-redis-lease");
        thread.setDaemon(true);
        return thread;
      });
    }
    if (!leased.add(key)) {
      return;
    }
    long ms = lease.toMillis();
    Runnable renew = () -> run(what, commands -> commands.set(key, "1",
        io.lettuce.core.SetArgs.Builder.px(ms)));
    try {
      renew.run();
    } catch (RedisUnavailableException e) {
      // The timer below sets it once Redis answers; until then no task can be created either.
    }
    long period = Math.max(10, ms / 3);
    leases.scheduleWithFixedDelay(() -> {
      try {
        renew.run();
      } catch (RuntimeException e) {
        // Redis is down: the next round tries again; a key that lapses meanwhile makes the other
        // instances take this one for dead, as if it had been killed.
      }
    }, period, period, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * Stops renewing the task lease and the heartbeat without giving them up: what a killed
   * instance leaves behind (they lapse after {@link RedisSettings#taskLease} and {@link
   * RedisSettings#liveness}).
   */
  synchronized void stopRenewingLeases() {
    if (leases != null) {
      leases.shutdownNow();
      leases = null;
    }
    leased.clear();
  }

  /** This instance's name in the leases of the tasks it runs. */
  String instance() {
    return instance;
  }

  /** The key whose presence says that {@code instance} is alive, for the tasks it runs. */
  String leaseKey(String instance) {
    return key("lease", instance);
  }

  /** The key whose presence says that {@code instance} is alive, for its streamed calls. */
  String aliveKey(String instance) {
    return key("alive", instance);
  }

  /**
   * A subscription bus for one server ({@code FusionServer.Builder.subscriptionBus}): a mutation
   * made through one instance notifies the sessions subscribed through any instance, on the
   * instance that carries each one's event stream. Its pub/sub connection is its own; it closes
   * with this connection.
   */
  public dev.mcpfusion.core.SubscriptionBus subscriptionBus() {
    RedisSubscriptions bus = new RedisSubscriptions(this);
    synchronized (this) {
      buses.add(bus);
    }
    return bus;
  }

  /**
   * A budget of {@code maxConcurrent} calls running at once across every instance that makes one
   * with this {@code name}, to register as middleware; a call beyond it, or any call while Redis
   * does not answer, is refused with {@code SERVER_BUSY} and when to retry. A permit is held
   * under a {@code lease} this instance renews while the call runs: an instance that dies holds
   * its permits until their leases lapse.
   *
   * @throws IllegalArgumentException when {@code name} is blank or has a brace, {@code
   *     maxConcurrent} is below 1, or {@code lease} is under 30 ms
   */
  public FleetBudget budget(String name, int maxConcurrent, Duration lease) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(lease, "lease");
    if (name.isBlank() || name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
      throw new IllegalArgumentException(
          "A budget's name must be non-blank and contain no '{' or '}', got '" + name + "'");
    }
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException(
          "Budget " + name + ": maxConcurrent must be at least 1, got " + maxConcurrent);
    }
    if (lease.toMillis() < 30) {
      throw new IllegalArgumentException("Budget " + name + ": the lease must be at least 30 ms,"
          + " got " + lease);
    }
    synchronized (this) {
      if (budgets == null) {
        budgets = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(task -> {
          Thread thread = new Thread(task, "fusion-redis-budget");
          thread.setDaemon(true);
          return thread;
        });
      }
      return new FleetBudget(this, name, maxConcurrent, lease, budgets);
    }
  }

  /**
   * A rate limit of {@code permits} calls in any {@code per} across every instance that makes one
   * with this {@code name} (a sliding window), to register as middleware; {@link
   * FleetRateLimit#perCaller()} counts each caller apart. A call beyond it, or any call while Redis
   * does not answer, is refused with {@code SERVER_BUSY} and when the next permit frees.
   *
   * @throws IllegalArgumentException when {@code name} is blank or has a brace, {@code permits} is
   *     not between 1 and 100,000, or {@code per} is not a whole number of seconds, at least 1
   */
  public FleetRateLimit rateLimit(String name, int permits, Duration per) {
    FleetRateLimit.check(name, permits, per);
    return new FleetRateLimit(this, name, permits, per, false);
  }

  /** A new pub/sub connection, with the command timeout of this one. */
  io.lettuce.core.pubsub.StatefulRedisPubSubConnection<String, String> connectPubSub() {
    try {
      io.lettuce.core.pubsub.StatefulRedisPubSubConnection<String, String> pubSub =
          client.connectPubSub();
      pubSub.setTimeout(settings.commandTimeout());
      return pubSub;
    } catch (RedisException e) {
      throw new RedisUnavailableException("Could not connect to Redis at " + server
          + " to hear the other instances; check that it runs", e);
    }
  }

  /**
   * The 2025-era session store: a session initialised on one instance is served by any, and a
   * client's answer to a request a handler sent it (sampling, elicitation) that reaches another
   * instance is handed to the one that asked ({@link dev.mcpfusion.http.AnswerRelay}).
   */
  public SessionStore sessionStore() {
    synchronized (this) {
      if (answers == null) {
        answers = new RedisAnswers(this, "answers");
      }
    }
    return new RedisSessionStore(this, answers);
  }

  /** The settings this connection was made with. */
  public RedisSettings settings() {
    return settings;
  }

  /**
   * Closes the connection. The stores handed out fail from then on; the tasks this instance was
   * running are marked failed by the next instance that reads them.
   */
  @Override
  public void close() {
    String[] given;
    synchronized (this) {
      given = leased.toArray(String[]::new);
    }
    stopRenewingLeases();
    synchronized (this) {
      buses.forEach(RedisSubscriptions::close);
      buses.clear();
      if (budgets != null) {
        budgets.shutdownNow();
      }
      if (answers != null) {
        answers.close();
      }
      if (taskMessages != null) {
        taskMessages.close();
      }
    }
    if (given.length > 0) {
      try {
        run("give up this instance's task lease and heartbeat", commands -> commands.del(given));
      } catch (RedisUnavailableException e) {
        // Redis is down: the lease lapses by itself.
      }
    }
    connection.close();
    shutdown();
  }

  /** Stops the client and its threads at once: a connection holds no work worth a quiet period. */
  private void shutdown() {
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
  }

  /** Runs {@code command}, turning every Redis failure into a clear, bounded one. */
  <T> T run(String what, Function<RedisCommands<String, String>, T> command) {
    try {
      return command.apply(connection.sync());
    } catch (RedisException e) {
      throw new RedisUnavailableException("Redis at " + server + " failed to " + what + ": "
          + reason(e), e);
    }
  }

  /** Runs a Lua script (one round trip, atomic) and returns its integer answer. */
  long script(String what, String script, String[] keys, String... args) {
    Long answer = run(what, redis -> redis.eval(script, ScriptOutputType.INTEGER, keys, args));
    return answer == null ? 0 : answer;
  }

  String key(String... parts) {
    return settings.prefix() + String.join(":", parts);
  }

  private String reason(RedisException e) {
    if (e instanceof io.lettuce.core.RedisCommandTimeoutException) {
      return "no answer within " + settings.commandTimeout().toMillis() + " ms";
    }
    if (!connection.isOpen()) {
      return "the connection is down (reconnecting)";
    }
    return "it refused the command";
  }

  private static String redacted(String url) {
    int at = url.lastIndexOf('@');
    int scheme = url.indexOf("://");
    return at > 0 && scheme > 0 && at > scheme ? url.substring(0, scheme + 3) + "…" + url.substring(at)
        : url;
  }
}
