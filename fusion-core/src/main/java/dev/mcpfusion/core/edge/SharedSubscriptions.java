package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.SubscriptionBus;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.server.FeatureError;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 2025-era resource subscriptions of a server whose instances share them through a
 * {@link SubscriptionBus}: a {@code resources/subscribe} is recorded on the bus, a mutation is
 * announced on it, and every instance, hearing an announcement, notifies each of its own sessions
 * whose subscriptions (as the bus keeps them) the mutation concerns. A session the client uses
 * through several instances has a copy on each; only the copy that carries the client's event
 * stream delivers, the others drop the message as they drop any with no stream to carry it.
 *
 * <p>An update sent this way passes the egress chain with an empty request context: the request
 * that subscribed may have been made on another instance.
 *
 * <p>The 2026-07-28 {@code subscriptions/listen} streams of this instance hear every announcement
 * too, this instance's own mutations included (which are not delivered to them directly, so each
 * is heard once): a stream whose scope key has the announcement's text is sent the update, with
 * the context of its own request, which is always on this instance.
 */
final class SharedSubscriptions {
  private static final Logger LOG = LoggerFactory.getLogger(SharedSubscriptions.class);

  private final SubscriptionBus bus;
  private final FeatureRegistry registry;
  private final Egress egress;
  private final ListenStreams listens;
  /** This instance's sessions (closed ones are dropped at the next announcement). */
  private final Set<EdgeSession> sessions = ConcurrentHashMap.newKeySet();

  SharedSubscriptions(SubscriptionBus bus, FeatureRegistry registry, Egress egress,
      ListenStreams listens) {
    this.bus = bus;
    this.registry = registry;
    this.egress = egress;
    this.listens = listens;
    bus.start(this::mutated);
  }

  /** A session of this instance, which hears the announced mutations from now on. */
  void track(EdgeSession session) {
    sessions.add(session);
  }

  /**
   * Records a {@code resources/subscribe} or {@code unsubscribe} on the bus; a bus that cannot
   * record it refuses the request with a retryable {@code SERVER_BUSY}.
   */
  void record(EdgeSession session, String uri, String scope, boolean subscribe) {
    track(session);
    try {
      if (subscribe) {
        bus.subscribe(session.id(), uri, scope);
      } else {
        bus.unsubscribe(session.id(), uri);
      }
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.warn("The subscription bus failed to record {} of session {} to {} (incident {})",
          subscribe ? "a subscription" : "an unsubscription", session.id(), uri, incident, e);
      throw new FeatureError(JsonRpc.SERVER_BUSY, "Server busy: the " + (subscribe
          ? "subscription to " : "end of the subscription to ") + uri + " could not be shared with"
          + " this server's other instances now (incident " + incident + "); retry after 1 second.",
          Map.of("code", Codes.SERVER_BUSY, "incident", incident, "retryAfterSeconds", 1));
    }
  }

  /** Announces a successful call's stale {@code domains}; a bus that fails costs the notifications only. */
  void publish(List<String> domains, String scope) {
    try {
      bus.publish(domains, scope);
    } catch (RuntimeException e) {
      LOG.warn("The subscription bus failed to announce a mutation of {}; no subscriber hears of"
          + " it", domains, e);
    }
  }

  /**
   * An announced mutation: notifies each session here subscribed to a resource it concerns, and
   * each listen stream here that listens to one.
   */
  private void mutated(List<String> domains, String scope) {
    listens.afterToolCall(domains, key -> scope.equals(FeatureRequests.scopeText(key)));
    for (EdgeSession session : sessions) {
      if (session.isClosed()) {
        sessions.remove(session);
        continue;
      }
      String id = session.id();
      if (id == null) {
        continue;
      }
      for (Map.Entry<String, String> subscription : bus.subscriptions(id).entrySet()) {
        String uri = subscription.getKey();
        if (!scope.equals(subscription.getValue())) {
          continue;
        }
        FeatureRegistry.Resolved resolved = registry.resolve(uri);
        if (resolved == null || !FeatureRequests.matches(domains, resolved.resource().router())) {
          continue;
        }
        try {
          Map<String, Object> params = egress.notification(Outbound.Channel.RESOURCE_UPDATED,
              FeatureRequests.UPDATED, uri, Map.of("uri", uri), egress.serverContent(), -1,
              RequestContext.empty());
          if (params != null) {
            session.notify(FeatureRequests.UPDATED, params);
          }
        } catch (RuntimeException e) {
          LOG.debug("Could not notify session {} of {}", id, uri, e);
        }
      }
    }
  }
}
