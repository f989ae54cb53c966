package dev.mcpfusion.core;

import java.time.Duration;

/**
 * Server-wide call limits for {@link FusionServer.Builder#limits}: the defaults that a router's or
 * method's {@code @Limits} overrides field by field. {@code -1} means "not set" (no limit unless a
 * router or method sets one).
 *
 * <pre>{@code
 * FusionServer.builder("billing", "1.0.0")
 *     .limits(CallLimits.none().maxConcurrent(32).queue(64).timeout(Duration.ofSeconds(10)))
 * }</pre>
 *
 * @param maxConcurrent calls running at once across all tools that do not set their own; -1 unset
 * @param queue calls that may wait for a slot; -1 unset (0 when a gate exists)
 * @param timeoutMs the deadline of one call in milliseconds; -1 unset
 * @param maxEgressBytes the largest reply in bytes; -1 unset
 */
public record CallLimits(int maxConcurrent, int queue, long timeoutMs, int maxEgressBytes) {
  private static final CallLimits NONE = new CallLimits(-1, -1, -1, -1);

  public CallLimits {
    check("maxConcurrent", maxConcurrent, 1);
    check("queue", queue, 0);
    check("timeoutMs", timeoutMs, 1);
    check("maxEgressBytes", maxEgressBytes, 1024);
  }

  private static void check(String name, long value, long min) {
    if (value != -1 && value < min) {
      throw new IllegalArgumentException("CallLimits." + name + " must be at least " + min
          + " (or -1 for not set), but was " + value + ".");
    }
  }

  /** No limit set. */
  public static CallLimits none() {
    return NONE;
  }

  /** With at most {@code n} calls running at once. */
  public CallLimits maxConcurrent(int n) {
    return new CallLimits(n, queue, timeoutMs, maxEgressBytes);
  }

  /** With at most {@code n} calls waiting for a slot. */
  public CallLimits queue(int n) {
    return new CallLimits(maxConcurrent, n, timeoutMs, maxEgressBytes);
  }

  /** With a deadline of {@code timeout} per call (whole milliseconds, at least 1). */
  public CallLimits timeout(Duration timeout) {
    return new CallLimits(maxConcurrent, queue, Math.max(1, timeout.toMillis()), maxEgressBytes);
  }

  /** With replies of at most {@code bytes} bytes (at least 1024, so every error envelope fits). */
  public CallLimits maxEgressBytes(int bytes) {
    return new CallLimits(maxConcurrent, queue, timeoutMs, bytes);
  }
}
