package dev.mcpfusion.redis;

import dev.mcpfusion.http.AnswerRelay;
import dev.mcpfusion.json.Json;
import io.lettuce.core.RedisException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link AnswerRelay} on Redis pub/sub: one channel per instance ({@code answers:<instance>}),
 * which that instance subscribes on its own connection; the tasks' updates and cancels use the
 * same relay on channels of their own ({@code taskmessages:<instance>}, {@link RedisTaskStore}). Sending an answer is one {@code PUBLISH}
 * to the instance that asked (no listener: it runs no more), which hands it to its waiting request
 * and publishes back whether one waited; the sender waits for that at most the command timeout.
 * Nothing is stored: while Redis is down nothing is sent, and the request that asked times out as
 * it would on a single instance.
 */
final class RedisAnswers implements AnswerRelay {
  private static final Logger LOG = LoggerFactory.getLogger(RedisAnswers.class);
  /** Answers heard and not yet handed over; past this the newest are dropped (and logged). */
  private static final int BACKLOG = 1_000;

  private final FusionRedis redis;
  private final String instance;
  /** The first part of each instance's channel: what the messages on it are. */
  private final String kind;
  private final List<Receiver> receivers = new CopyOnWriteArrayList<>();
  /** The answers this instance sent, waiting for whether they were taken, by number. */
  private final Map<Long, CompletableFuture<Boolean>> sent = new ConcurrentHashMap<>();
  private final AtomicLong numbers = new AtomicLong();
  /** Hands answers over and acknowledges them off Lettuce's threads (which must never block). */
  private final ThreadPoolExecutor worker;
  /** Guarded by this; opened with the first receiver. */
  private StatefulRedisPubSubConnection<String, String> pubSub;

  RedisAnswers(FusionRedis redis, String kind) {
    this.redis = redis;
    this.kind = kind;
    this.instance = redis.instance().replace("-", "");
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(BACKLOG), task -> {
          Thread thread = new Thread(task, "fusion-redis-" + kind);
          thread.setDaemon(true);
          return thread;
        });
  }

  @Override
  public String instance() {
    return instance;
  }

  private String channel(String of) {
    return redis.key(kind, of);
  }

  @Override
  public synchronized AutoCloseable listen(Receiver receiver) {
    receivers.add(receiver);
    if (pubSub == null) {
      pubSub = redis.connectPubSub();
      pubSub.addListener(new RedisPubSubAdapter<>() {
        @Override
        public void message(String from, String message) {
          heard(message);
        }
      });
      try {
        pubSub.sync().subscribe(channel(instance));
      } catch (RedisException e) {
        // Redis is down: Lettuce subscribes once it is back.
        LOG.warn("Could not subscribe to this instance's answer channel yet; retrying in the"
            + " background", e);
      }
    }
    return () -> receivers.remove(receiver);
  }

  /**
   * One message on this instance's channel: an answer {@code ["a", from, number, session,
   * response]} or the acknowledgement {@code ["k", number, taken]} of one this instance sent.
   */
  private void heard(String message) {
    List<?> parts;
    try {
      parts = Json.parse(message) instanceof List<?> list ? list : List.of();
    } catch (IllegalArgumentException e) {
      parts = List.of();
    }
    if (parts.size() == 3 && "k".equals(parts.get(0)) && parts.get(1) instanceof Number number) {
      CompletableFuture<Boolean> waiting = sent.remove(number.longValue());
      if (waiting != null) {
        waiting.complete(Boolean.TRUE.equals(parts.get(2)));
      }
      return;
    }
    if (parts.size() != 5 || !"a".equals(parts.get(0)) || !(parts.get(1) instanceof String from)
        || !(parts.get(2) instanceof Number number) || !(parts.get(3) instanceof String session)
        || !(parts.get(4) instanceof String response)) {
      LOG.debug("Dropped a malformed message on the answer channel");
      return;
    }
    try {
      worker.execute(() -> hand(from, number.longValue(), session, response));
    } catch (RejectedExecutionException e) {
      LOG.warn("Dropped an answer for session {}: {} answers wait to be handed over", session, BACKLOG);
    }
  }

  private void hand(String from, long number, String session, String response) {
    boolean taken = false;
    for (Receiver receiver : receivers) {
      if (receiver.receive(session, response)) {
        taken = true;
        break;
      }
    }
    try {
      String ack = Json.write(List.of("k", number, taken));
      redis.run("acknowledge a client's answer", commands -> commands.publish(channel(from), ack));
    } catch (RedisUnavailableException e) {
      LOG.debug("Could not acknowledge answer {} of instance {}; it times out there", number, from, e);
    }
  }

  @Override
  public boolean send(String to, String sessionId, String response) {
    if (!to.matches("[A-Za-z0-9]{1,64}")) {
      return false;
    }
    long number = numbers.incrementAndGet();
    CompletableFuture<Boolean> taken = new CompletableFuture<>();
    sent.put(number, taken);
    try {
      String message = Json.write(List.of("a", instance, number, sessionId, response));
      Long listeners = redis.run("hand a client's answer to the instance that asked",
          commands -> commands.publish(channel(to), message));
      if (listeners == null || listeners == 0) {
        return false;
      }
      long timeout = redis.settings().commandTimeout().toMillis();
      try {
        return taken.get(timeout, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new RedisUnavailableException("The instance that asked did not say within " + timeout
            + " ms whether it took the answer", e);
      } catch (ExecutionException e) {
        throw new RedisUnavailableException("The answer could not be handed over", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RedisUnavailableException("Interrupted while handing over an answer", e);
      }
    } finally {
      sent.remove(number);
    }
  }

  synchronized void close() {
    worker.shutdownNow();
    if (pubSub != null) {
      pubSub.close();
      pubSub = null;
    }
  }
}
