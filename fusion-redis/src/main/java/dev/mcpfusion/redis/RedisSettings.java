package dev.mcpfusion.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link FusionRedis} uses Redis.
 *
 * @param namespace the prefix of every key, so connectors can share one Redis: every key is
 *     {@code fusion:{<namespace>}:…}
 * @param commandTimeout the longest a store waits for Redis before it fails the call with a
 *     {@link RedisUnavailableException}; also the connect timeout
 * @param eventsPerStream the most events kept of one event stream (the oldest go first)
 * @param eventTtl how long an event stream is kept after its newest event
 * @param sessionTtl how long a session is kept after it was last used on any instance
 * @param taskLease how long a running task stays {@code working} after the instance running it
 *     last renewed its lease (every third of it); past that, the instance is taken for dead and
 *     the task is marked failed when an instance reads it
 * @param liveness how long an instance counts as alive for its streamed calls after its last
 *     heartbeat (one every third of it, on a thread of its own): once it lapses, a client resuming
 *     one of its streams on another instance gets the missed events, then the request's retryable
 *     error saying its outcome is unknown. Shorter than the task lease, because a client resuming
 *     a dead instance's stream waits for it; not much shorter, because an instance that is alive
 *     but cannot renew it for that long (a stop-the-world pause, a starved CPU, Redis out of reach
 *     or failing over) is taken for dead too: its streams resumed elsewhere meanwhile end with
 *     that error, and their later events are dropped, even if the call then finishes. (An
 *     instance out of reach of Redis cannot store its streams' events either, so a resume
 *     elsewhere would get nothing more from it.) Raise it where such pauses are longer.
 */
public record RedisSettings(String namespace, Duration commandTimeout, int eventsPerStream,
    Duration eventTtl, Duration sessionTtl, Duration taskLease, Duration liveness) {
  /** The default {@link #liveness}: a heartbeat every 2 seconds, three of them missed at most. */
  private static final Duration LIVENESS = Duration.ofSeconds(6);

  /**
   * Namespace {@code fusion}, a 2-second command timeout (a call fails clearly long before a
   * client gives up), 1,000 events per stream kept for an hour, sessions kept for 30 minutes
   * unused (as the HTTP endpoint's idle limit), a task lease of 30 seconds, a liveness of 6
   * seconds (a heartbeat every 2 seconds: half a Redis write per second per instance).
   */
  public static final RedisSettings DEFAULT = new RedisSettings("fusion", Duration.ofSeconds(2),
      1_000, Duration.ofHours(1), Duration.ofMinutes(30), Duration.ofSeconds(30), LIVENESS);

  /** Settings with the default task lease (30 seconds) and liveness (6 seconds). */
  public RedisSettings(String namespace, Duration commandTimeout, int eventsPerStream,
      Duration eventTtl, Duration sessionTtl) {
    this(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, Duration.ofSeconds(30),
        LIVENESS);
  }

  /** Settings with the default liveness (6 seconds). */
  public RedisSettings(String namespace, Duration commandTimeout, int eventsPerStream,
      Duration eventTtl, Duration sessionTtl, Duration taskLease) {
    this(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, taskLease, LIVENESS);
  }

  /** Checks every setting: a namespace without braces, positive durations and limit. */
  public RedisSettings {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isEmpty() || namespace.indexOf('{') >= 0 || namespace.indexOf('}') >= 0) {
      throw new IllegalArgumentException(
          "namespace must be non-empty and contain no '{' or '}', got '" + namespace + "'");
    }
    positive("commandTimeout", commandTimeout);
    positive("eventTtl", eventTtl);
    positive("sessionTtl", sessionTtl);
    positive("taskLease", taskLease);
    if (taskLease.toMillis() < 30) {
      throw new IllegalArgumentException("taskLease must be at least 30 ms, got " + taskLease);
    }
    positive("liveness", liveness);
    if (liveness.toMillis() < 30) {
      throw new IllegalArgumentException("liveness must be at least 30 ms, got " + liveness);
    }
    if (eventsPerStream < 1) {
      throw new IllegalArgumentException("eventsPerStream must be positive, got " + eventsPerStream);
    }
  }

  /** These settings with another namespace. */
  public RedisSettings withNamespace(String namespace) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl,
        taskLease, liveness);
  }

  /** These settings with another command timeout. */
  public RedisSettings withCommandTimeout(Duration commandTimeout) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl,
        taskLease, liveness);
  }

  /** These settings with another session time-to-live. */
  public RedisSettings withSessionTtl(Duration sessionTtl) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl,
        taskLease, liveness);
  }

  /** These settings with another task lease. */
  public RedisSettings withTaskLease(Duration taskLease) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl,
        taskLease, liveness);
  }

  /** These settings with another liveness. */
  public RedisSettings withLiveness(Duration liveness) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl,
        taskLease, liveness);
  }

  /** The prefix of every key: the namespace in braces, so one connector's keys share a slot. */
  String prefix() {
    return "fusion:{" + namespace + "}:";
  }

  private static void positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }
}
