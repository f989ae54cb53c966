package dev.mcpfusion.resilience;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * When an upstream's circuit opens and how it heals: over the last {@code windowSize} calls (once
 * at least {@code minimumCalls} were made), a failure rate of {@code failureRatePercent} or more
 * opens it; it stays open for {@code openFor}, then lets {@code trialCalls} calls through
 * (half-open): if their failure rate is below the threshold it closes, otherwise it opens again.
 *
 * <pre>{@code
 * UpstreamPolicy.defaults().openFor(Duration.ofSeconds(10)).failureRatePercent(25)
 * }</pre>
 *
 * @param failureRatePercent the failure rate, in percent (1–100), that opens the circuit
 * @param windowSize how many of the latest calls the rate is measured over
 * @param minimumCalls how many calls the window needs before the rate counts
 * @param openFor how long an open circuit refuses every call
 * @param trialCalls how many calls a half-open circuit lets through to decide
 * @param clock the time the circuit reads (a test moves it instead of sleeping)
 */
public record UpstreamPolicy(int failureRatePercent, int windowSize, int minimumCalls,
    Duration openFor, int trialCalls, Clock clock) {

  /** Checks every bound. */
  public UpstreamPolicy {
    if (failureRatePercent < 1 || failureRatePercent > 100) {
      throw new IllegalArgumentException("failureRatePercent must be 1..100, got " + failureRatePercent);
    }
    if (windowSize < 1 || minimumCalls < 1 || trialCalls < 1) {
      throw new IllegalArgumentException("windowSize, minimumCalls and trialCalls must be at least 1, got "
          + windowSize + ", " + minimumCalls + ", " + trialCalls);
    }
    Objects.requireNonNull(openFor, "openFor");
    Objects.requireNonNull(clock, "clock");
    if (openFor.isNegative() || openFor.isZero()) {
      throw new IllegalArgumentException("openFor must be positive, got " + openFor);
    }
  }

  /** 50 % of the last 10 calls (at least 5 made) opens the circuit for 30 s; 2 trial calls decide. */
  public static UpstreamPolicy defaults() {
    return new UpstreamPolicy(50, 10, 5, Duration.ofSeconds(30), 2, Clock.systemUTC());
  }

  /** A copy opening at another failure rate. */
  public UpstreamPolicy failureRatePercent(int percent) {
    return new UpstreamPolicy(percent, windowSize, minimumCalls, openFor, trialCalls, clock);
  }

  /** A copy measuring over another window, counting once {@code minimum} calls were made. */
  public UpstreamPolicy window(int size, int minimum) {
    return new UpstreamPolicy(failureRatePercent, size, minimum, openFor, trialCalls, clock);
  }

  /** A copy staying open for another duration. */
  public UpstreamPolicy openFor(Duration duration) {
    return new UpstreamPolicy(failureRatePercent, windowSize, minimumCalls, duration, trialCalls, clock);
  }

  /** A copy letting another number of trial calls through when half-open. */
  public UpstreamPolicy trialCalls(int calls) {
    return new UpstreamPolicy(failureRatePercent, windowSize, minimumCalls, openFor, calls, clock);
  }

  /** A copy reading another clock. */
  public UpstreamPolicy clock(Clock clock) {
    return new UpstreamPolicy(failureRatePercent, windowSize, minimumCalls, openFor, trialCalls, clock);
  }
}
