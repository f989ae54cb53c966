package dev.mcpfusion.resilience;

import dev.mcpfusion.core.FusionError;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

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
 * <p>Thread-safe; {@link #upstream} answers the same {@link Upstream} for the same name while it
 * is remembered. At most {@value #DEFAULT_MAX_UPSTREAMS} names are remembered by default (a client
 * whose breaker is keyed by host names an agent chose must not grow without bound): past the cap
 * the least recently used closed breaker is forgotten; an open or half-open one is kept, so a flood
 * of new names cannot reset the breaker of a failing upstream.
 */
public final class Upstreams {
  private final UpstreamPolicy policy;
  private final CircuitBreakerConfig config;
  /** How many upstreams {@link #create(UpstreamPolicy)} remembers. */
  public static final int DEFAULT_MAX_UPSTREAMS = 1024;

  private final int maxUpstreams;
  /** In access order: the first entry is the least recently used. */
  private final LinkedHashMap<String, Upstream> upstreams = new LinkedHashMap<>(16, 0.75f, true);

  private Upstreams(UpstreamPolicy policy, int maxUpstreams) {
    this.policy = policy;
    this.maxUpstreams = maxUpstreams;
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
    return create(UpstreamPolicy.defaults());
  }

  /** The upstreams under {@code policy}. */
  public static Upstreams create(UpstreamPolicy policy) {
    return create(policy, DEFAULT_MAX_UPSTREAMS);
  }

  /**
   * The upstreams under {@code policy}, remembering at most {@code maxUpstreams} of them (the
   * least recently used closed breaker is forgotten first).
   *
   * @throws IllegalArgumentException when {@code maxUpstreams} is below 1
   */
  public static Upstreams create(UpstreamPolicy policy, int maxUpstreams) {
    if (maxUpstreams < 1) {
      throw new IllegalArgumentException("maxUpstreams must be at least 1, got " + maxUpstreams);
    }
    return new Upstreams(Objects.requireNonNull(policy, "policy"), maxUpstreams);
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
    synchronized (upstreams) {
      Upstream known = upstreams.get(name);
      if (known != null) {
        return known;
      }
      if (upstreams.size() >= maxUpstreams) {
        forgetOne();
      }
      Upstream created = new Upstream(name, CircuitBreaker.of(name, config), policy);
      upstreams.put(name, created);
      return created;
    }
  }

  /** How many upstreams are remembered. */
  int size() {
    synchronized (upstreams) {
      return upstreams.size();
    }
  }

  /** Forgets the least recently used closed upstream, or the least recently used when none is closed. */
  private void forgetOne() {
    Iterator<Map.Entry<String, Upstream>> it = upstreams.entrySet().iterator();
    while (it.hasNext()) {
      if (it.next().getValue().state() == Upstream.State.CLOSED) {
        it.remove();
        return;
      }
    }
    Iterator<String> oldest = upstreams.keySet().iterator();
    oldest.next();
    oldest.remove();
  }
}
