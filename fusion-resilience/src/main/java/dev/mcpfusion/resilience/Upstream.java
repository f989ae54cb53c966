package dev.mcpfusion.resilience;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * One upstream's circuit breaker ({@link Upstreams#upstream}). {@link #call} runs a call through
 * it: closed, the call runs and its outcome counts; open, the call does not run and the handler
 * throws an {@code UPSTREAM_UNAVAILABLE} {@link FusionError} instead — the agent reads that the
 * upstream is unavailable and after how many seconds to retry.
 */
public final class Upstream {
  /** How long an agent is told to wait while a half-open circuit's trial calls decide. */
  static final Duration TRIAL_RETRY = Duration.ofSeconds(1);

  /** A call to the upstream, throwing what the call throws. */
  @FunctionalInterface
  public interface Call<T, E extends Exception> {
    /** Makes the call. */
    T call() throws E;
  }

  /** The state of the circuit. */
  public enum State {
    /** Calls run; failures are counted. */
    CLOSED,
    /** Calls are refused until the policy's {@code openFor} has passed. */
    OPEN,
    /** A few trial calls run; the rest are refused until they decide. */
    HALF_OPEN
  }

  private final String name;
  private final CircuitBreaker breaker;
  private final Clock clock;
  private final Duration openFor;
  private volatile Instant openedAt;

  Upstream(String name, CircuitBreaker breaker, UpstreamPolicy policy) {
    this.name = name;
    this.breaker = breaker;
    this.clock = policy.clock();
    this.openFor = policy.openFor();
    this.openedAt = clock.instant();
    breaker.getEventPublisher().onStateTransition(event -> {
      if (event.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
        openedAt = clock.instant();
      }
    });
  }

  /** The name the agent reads in a refusal. */
  public String name() {
    return name;
  }

  /** The circuit's state now (an open circuit past its {@code openFor} turns half-open at its next call). */
  public State state() {
    return switch (breaker.getState()) {
      case CLOSED -> State.CLOSED;
      case HALF_OPEN -> State.HALF_OPEN;
      default -> State.OPEN;
    };
  }

  /**
   * Runs {@code call} when the circuit lets it through and counts its outcome: a return is a
   * success, a thrown exception a failure (and is rethrown as is), except a {@link FusionError},
   * which counts as neither.
   *
   * @throws FusionError {@code UPSTREAM_UNAVAILABLE} when the circuit is open, or half-open with
   *     its trial calls under way; {@code call} did not run
   */
  public <T, E extends Exception> T call(Call<T, E> call) throws E {
    if (!breaker.tryAcquirePermission()) {
      throw refusal();
    }
    long start = breaker.getCurrentTimestamp();
    T result;
    try {
      result = call.call();
    } catch (Throwable failure) {
      breaker.onError(breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit(), failure);
      throw failure;
    }
    breaker.onSuccess(breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit());
    return result;
  }

  private FusionError refusal() {
    boolean trial = breaker.getState() == CircuitBreaker.State.HALF_OPEN;
    Duration wait = trial ? TRIAL_RETRY : remainingOpen();
    return FusionError.of(Codes.UPSTREAM_UNAVAILABLE, "The upstream " + name + " is unavailable: "
            + (trial ? "a few trial calls are checking whether it has recovered."
                : "its recent calls failed, so calls to it are paused."))
        .recovery("Retry after the time below. Until then do not call actions that need " + name
            + "; if the user needs them now, tell the user " + name + " is unavailable.")
        .detail("upstream", name)
        .detail("circuit", trial ? "half_open" : "open")
        .retryAfter(wait);
  }

  private Duration remainingOpen() {
    Duration left = openFor.minus(Duration.between(openedAt, clock.instant()));
    // Never "retry after 0 seconds": the circuit turns half-open at the next call after the wait.
    return left.compareTo(TRIAL_RETRY) < 0 ? TRIAL_RETRY : left;
  }

  @Override
  public String toString() {
    return "Upstream[" + name + ", " + state() + "]";
  }
}
