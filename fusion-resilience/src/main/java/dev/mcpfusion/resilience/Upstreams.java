package dev.mcpfusion.resilience;

import dev.mcpfusion.core.FusionError;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The circuit breakers of the upstreams a connector calls, one per name, all under one
 * {@link UpstreamPolicy}. Build it once and hand it to the routers that call out:
 *
 * <pre>{@code
 * Upstreams upstreams = Upstreams.create(UpstreamPolicy.defaults());
 * FusionServer.builder("billing", "1.0.0").register(new BillingTools(upstreams)).build();
 * // in a handler:
 * return upstreams.upstream("ledger-api").call(() -> ledger.fetch(id));
 * }</pre>
 *
 * <p>Thread-safe; {@link #upstream} answers the same {@link Upstream} for the same name.
 */
public final class Upstreams {
  private final UpstreamPolicy policy;
  private final CircuitBreakerConfig config;
  private final Map<String, Upstream> upstreams = new ConcurrentHashMap<>();

  private Upstreams(UpstreamPolicy policy) {
    this.policy = policy;
    this.config = CircuitBreakerConfig.custom()
        .failureRateThreshold(policy.failureRatePercent())
        .slidingWindow(policy.windowSize(), policy.minimumCalls(),
            CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .waitDurationInOpenState(policy.openFor())
        .permittedNumberOfCallsInHalfOpenState(policy.trialCalls())
        // A FusionError is the upstream's answer turned into words for the agent (not found, a
        // conflict): the upstream worked, so it neither counts as a failure nor as a success.
        .ignoreExceptions(FusionError.class)
        .clock(policy.clock())
        .build();
  }

  /** The upstreams under {@link UpstreamPolicy#defaults()}. */
  public static Upstreams create() {
    return new Upstreams(UpstreamPolicy.defaults());
  }

  /** The upstreams under {@code policy}. */
  public static Upstreams create(UpstreamPolicy policy) {
    return new Upstreams(Objects.requireNonNull(policy, "policy"));
  }

  /**
   * The upstream named {@code name} (as the agent will read it in a refusal: a service, not a URL
   * with credentials), created closed on first use.
   *
   * @throws IllegalArgumentException when the name is blank
   */
  public Upstream upstream(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("An upstream's name must not be blank; name the service it is (e.g. \"ledger-api\").");
    }
    return upstreams.computeIfAbsent(name,
        n -> new Upstream(n, CircuitBreaker.of(n, config), policy));
  }
}
