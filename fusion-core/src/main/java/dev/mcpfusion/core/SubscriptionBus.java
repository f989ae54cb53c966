package dev.mcpfusion.core;

import java.util.List;
import java.util.Map;

/**
 * Carries the 2025-era resource subscriptions ({@code resources/subscribe}) and the mutations that
 * concern them between the instances of one connector, so that a mutation made through one
 * instance sends {@code notifications/resources/updated} to a subscribed session whose event
 * stream another instance carries, and to a 2026-07-28 {@code subscriptions/listen} stream that
 * another instance holds. Without one (the default) both stay in this process. Set it with
 * {@code FusionServer.Builder.subscriptionBus}; fusion-redis has one on Redis pub/sub.
 *
 * <p>Scopes travel as text: the key of {@code FusionServer.Builder.subscriptionScope} is compared
 * across instances by its {@code String.valueOf}. A bus whose store cannot answer throws a
 * {@link RuntimeException} from {@link #subscribe}, {@link #unsubscribe} and {@link #publish}
 * within its own bound: the subscription is refused with a retryable error, and a mutation whose
 * announcement failed notifies no one (its call still succeeds). Called from any thread.
 */
public interface SubscriptionBus {
  /** Records, for every instance, that {@code sessionId} subscribed to {@code uri} under {@code scope}. */
  void subscribe(String sessionId, String uri, String scope);

  /** Forgets, for every instance, the subscription of {@code sessionId} to {@code uri}. */
  void unsubscribe(String sessionId, String uri);

  /**
   * The URIs {@code sessionId} is subscribed to through any instance, each with its scope; empty
   * when none. Answered from memory: it is asked for every session of this instance at every
   * announced mutation.
   */
  Map<String, String> subscriptions(String sessionId);

  /** Announces to every instance, this one included, that a call under {@code scope} marked {@code domains} stale. */
  void publish(List<String> domains, String scope);

  /**
   * Hands every announcement, of every instance and this one's, to {@code receiver} from now on,
   * on a thread of the bus's own. Called once, when the server is built.
   */
  void start(Receiver receiver);

  /** What hears the announced mutations. */
  @FunctionalInterface
  interface Receiver {
    /** A call under {@code scope} marked {@code domains} stale, through some instance. */
    void mutated(List<String> domains, String scope);
  }
}
