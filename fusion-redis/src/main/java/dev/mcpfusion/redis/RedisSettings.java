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
 *     the task is marked failed when an instance reads it; likewise, a streamed call's stream is
 *     ended with a retryable error when a client resumes it on another instance
 */
public record RedisSettings(String namespace, Duration commandTimeout, int eventsPerStream,
    Duration eventTtl, Duration sessionTtl, Duration taskLease) {
  /**
   * Namespace {@code fusion}, a 2-second command timeout (a call fails clearly long before a
   * client gives up), 1,000 events per stream kept for an hour, sessions kept for 30 minutes
   * unused (as the HTTP endpoint's idle limit), a task lease of 30 seconds.
   */
  public static final RedisSettings DEFAULT = new RedisSettings("fusion", Duration.ofSeconds(2),
      1_000, Duration.ofHours(1), Duration.ofMinutes(30), Duration.ofSeconds(30));

  /** Settings with the default task lease (30 seconds). */
  public RedisSettings(String namespace, Duration commandTimeout, int eventsPerStream,
      Duration eventTtl, Duration sessionTtl) {
    this(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, Duration.ofSeconds(30));
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
    if (eventsPerStream < 1) {
      throw new IllegalArgumentException("eventsPerStream must be positive, got " + eventsPerStream);
    }
  }

  /** These settings with another namespace. */
  public RedisSettings withNamespace(String namespace) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, taskLease);
  }

  /** These settings with another command timeout. */
  public RedisSettings withCommandTimeout(Duration commandTimeout) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, taskLease);
  }

  /** These settings with another session time-to-live. */
  public RedisSettings withSessionTtl(Duration sessionTtl) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, taskLease);
  }

  /** These settings with another task lease. */
  public RedisSettings withTaskLease(Duration taskLease) {
    return new RedisSettings(namespace, commandTimeout, eventsPerStream, eventTtl, sessionTtl, taskLease);
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
