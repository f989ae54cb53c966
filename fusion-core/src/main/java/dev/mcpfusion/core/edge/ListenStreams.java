package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 2026-07-28 {@code subscriptions/listen} streams of resources: the stateless era's
 * replacement for {@code resources/subscribe}.
 *
 * <p>What the specification (2026-07-28, basic/patterns/subscriptions, and the schema's
 * {@code SubscriptionsListenRequest}) asks, and what this implements: the client opts in to
 * notification types in {@code params.notifications}; the server "MUST send
 * notifications/subscriptions/acknowledged as the first message on the stream", naming "the subset
 * of requested notification types the server agreed to honor"; it "MUST NOT send notification
 * types the client has not explicitly requested"; every notification on the stream carries
 * {@code io.modelcontextprotocol/subscriptionId} in {@code _meta}, the id of the listen request;
 * missed events are not replayed; the request stays open until the client goes away, and its
 * result ({@code resultType} only) is sent only when the server ends the subscription.
 *
 * <p>This server honours {@code resourceSubscriptions} only: its tool, prompt and resource lists
 * never change while it runs, so the three {@code *ListChanged} types are left out of the
 * acknowledgement. A URI is honoured when a resource or template of the server serves it and the
 * caller holds its scopes — a caller never hears of a resource it may not read — and, as with
 * {@code resources/subscribe}, an update is sent only to the streams opened under the same
 * {@code subscriptionScope} key as the mutation's request. At most {@code max} streams are open
 * at once (over it: {@link JsonRpc#SERVER_BUSY}). Over HTTP each holds its request's thread,
 * writing a heartbeat every {@code heartbeat} so that a client that left is noticed and its stream
 * released. On stdio, "where every subscription shares one channel", the notifications go on the
 * connection's output, correlated by the subscription id alone; the client ends a stream with
 * {@code notifications/cancelled} naming the listen request, and its end of input ends them all.
 *
 * <p>With a {@code SubscriptionBus} the streams hear of the mutations made through every instance
 * of the server: a mutation is announced on the bus, and each instance, this one included, hears
 * it there once and queues it on its own streams, comparing scope keys by their text
 * ({@link SharedSubscriptions}). Without one, a mutation reaches this instance's streams directly.
 */
public final class ListenStreams {
  private static final Logger LOG = LoggerFactory.getLogger(ListenStreams.class);
  /** Updates waiting for a slow client; past this the stream drops the oldest (none are replayed). */
  private static final int QUEUE = 64;

  private final FeatureRegistry registry;
  private final Egress egress;
  private final String serverInfoMember;
  private final int max;
  private final Duration heartbeat;
  private final AtomicInteger open = new AtomicInteger();
  private final Set<Listener> listeners = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * One open stream: its id, the URIs it honours, its scope key and request, and either its queue
   * (a held HTTP stream) or the connection's channel it writes to at once and its session
   * (stdio, the tester).
   */
  private record Listener(Object id, Set<String> uris, Object key, RequestContext request,
      BlockingQueue<byte[]> queue, Sink channel, EdgeSession session, AtomicBoolean ended) {}

  /** Ends a stream's wait: the server is closing. */
  private static final byte[] END = new byte[0];

  ListenStreams(FeatureRegistry registry, Egress egress, String serverInfoMember, int max,
      Duration heartbeat) {
    this.registry = registry;
    this.egress = egress;
    this.serverInfoMember = serverInfoMember;
    this.max = max;
    this.heartbeat = heartbeat;
  }

  /** How many listen streams are open now. */
  public int open() {
    return open.get();
  }

  /**
   * Serves one {@code subscriptions/listen} request; {@code key} is the request's subscription
   * scope key. Over HTTP ({@code out} holds streams) it holds this thread until its client goes
   * away or the server closes. On a connection with a channel of its own ({@code session} not
   * {@code null}: stdio, the tester) it returns at once: the acknowledgement and the updates go
   * on that channel, tagged with the request's id, until the client cancels the request
   * ({@code notifications/cancelled}, which gets no reply), the session closes, or the server
   * closes (the stream's result).
   */
  void listen(Message message, RequestContext request, Object key, Sink out,
      EdgeSession session) {
    Object id = message.id();
    if (!out.holdsStreams() && session == null) {
      out.reply(id, JsonRpc.INVALID_REQUEST, Bodies.error(id, JsonRpc.INVALID_REQUEST,
          "Invalid Request: " + JsonRpc.SUBSCRIPTIONS_LISTEN + " needs a stream: over HTTP, send"
              + " it on a POST whose Accept header allows text/event-stream."));
      return;
    }
    Set<String> requested;
    try {
      requested = requestedUris(message.params());
    } catch (IllegalArgumentException e) {
      out.reply(id, JsonRpc.INVALID_PARAMS, Bodies.error(id, JsonRpc.INVALID_PARAMS,
          "Invalid params: " + e.getMessage()));
      return;
    }
    if (open.incrementAndGet() > max || closed) {
      open.decrementAndGet();
      out.reply(id, JsonRpc.SERVER_BUSY, Bodies.error(id, JsonRpc.SERVER_BUSY, "Server busy: "
          + max + " listen streams are open, the most this server holds; close one you no longer"
          + " read, or retry later.", Map.of("code", dev.mcpfusion.wire.Codes.SERVER_BUSY)));
      return;
    }
    if (!out.holdsStreams()) {
      onChannel(id, honoured(requested, request), key, request, out, session);
      return;
    }
    Listener listener = new Listener(id, honoured(requested, request), key, request,
        new ArrayBlockingQueue<>(QUEUE), null, null, new AtomicBoolean());
    listeners.add(listener);
    try {
      Map<String, Object> notifications = new LinkedHashMap<>();
      notifications.put("resourceSubscriptions", List.copyOf(listener.uris()));
      out.push(Bodies.notification(JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED,
          tagged(id, Map.of("notifications", notifications))));
      long beat = heartbeat.toNanos();
      while (!closed) {
        byte[] next = listener.queue().poll(beat, TimeUnit.NANOSECONDS);
        if (next == END) {
          break;
        }
        if (next != null) {
          out.push(next);
        }
        // A failed push is seen here too: the heartbeat says the stream is gone.
        if (!out.heartbeat()) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      listeners.remove(listener);
      open.decrementAndGet();
    }
    // When the server ends the subscription, this empty result is the spec's graceful end; when
    // the client left, it goes nowhere, but the transport expects a reply to every request.
    out.reply(id, 0, result(id));
  }

  /**
   * Opens a stream on the connection's own channel, registered with the session, which ends it on
   * {@code notifications/cancelled} or when it closes. It is listed before its acknowledgement is
   * written, so a mutation the client makes once it has read the acknowledgement is heard; the
   * acknowledgement is written holding the stream's monitor, which every update to it takes, so
   * nothing of this stream can be written before it.
   */
  private void onChannel(Object id, Set<String> uris, Object key, RequestContext request,
      Sink out, EdgeSession session) {
    Listener listener = new Listener(id, uris, key, request, null, out, session,
        new AtomicBoolean());
    if (!session.holdStream(id, () -> end(listener))) {
      open.decrementAndGet();
      out.reply(id, JsonRpc.INVALID_REQUEST, Bodies.error(id, JsonRpc.INVALID_REQUEST,
          "Invalid Request: a request with id " + dev.mcpfusion.wire.Echo.id(id)
              + " is still in flight; use a new id."));
      return;
    }
    Map<String, Object> notifications = new LinkedHashMap<>();
    notifications.put("resourceSubscriptions", List.copyOf(uris));
    synchronized (listener) {
      listeners.add(listener);
      out.push(Bodies.notification(JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED,
          tagged(id, Map.of("notifications", notifications))));
    }
    if (listener.ended().get()) {
      listeners.remove(listener); // cancelled (or its session closed) before it was listed
    } else if (closed && end(listener)) {
      // The server closed meanwhile, and close() did not see this stream: it ends as they did.
      session.releaseStream(id);
      out.reply(id, 0, result(id));
    }
  }

  /** Ends a stream on a connection's channel once, whoever ends it; false if it had ended. */
  private boolean end(Listener listener) {
    if (!listener.ended().compareAndSet(false, true)) {
      return false;
    }
    listeners.remove(listener);
    open.decrementAndGet();
    return true;
  }

  private byte[] result(Object id) {
    StringBuilder out = new StringBuilder(128);
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    dev.mcpfusion.json.Json.appendValue(id, out);
    out.append(",\"result\":{\"resultType\":\"complete\",\"_meta\":{").append(serverInfoMember)
        .append("}}}");
    return out.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * The URIs {@code params.notifications.resourceSubscriptions} names, in order; empty when it
   * names none. Throws {@link IllegalArgumentException} naming what is malformed.
   */
  private static Set<String> requestedUris(Map<?, ?> params) {
    Object notifications = params == null ? null : params.get("notifications");
    if (!(notifications instanceof Map<?, ?> filter)) {
      throw new IllegalArgumentException(JsonRpc.SUBSCRIPTIONS_LISTEN + " needs \"notifications\","
          + " an object naming what to listen for, e.g. {\"resourceSubscriptions\": [\"<uri>\"]}.");
    }
    Object uris = filter.get("resourceSubscriptions");
    Set<String> requested = new LinkedHashSet<>();
    if (uris == null) {
      return requested;
    }
    if (!(uris instanceof List<?> list)) {
      throw new IllegalArgumentException("notifications.resourceSubscriptions must be an array of"
          + " resource URIs (strings).");
    }
    for (Object uri : list) {
      if (!(uri instanceof String s)) {
        throw new IllegalArgumentException("notifications.resourceSubscriptions must be an array"
            + " of resource URIs (strings); it holds " + (uri == null ? "null" : "a non-string")
            + ".");
      }
      requested.add(s);
    }
    return requested;
  }

  /** The requested URIs a resource of this server serves and whose scopes the caller holds. */
  private Set<String> honoured(Set<String> requested, RequestContext request) {
    Set<String> honoured = new LinkedHashSet<>();
    for (String uri : requested) {
      FeatureRegistry.Resolved resolved = registry.resolve(uri);
      if (resolved != null
          && request.caller().missing(resolved.resource().descriptor().scopes()).isEmpty()) {
        honoured.add(uri);
      }
    }
    return honoured;
  }

  /** {@code params} with the stream's id in its {@code _meta}, as every message on it carries. */
  private static Map<String, Object> tagged(Object id, Map<String, Object> params) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("_meta", Map.of(Meta.SUBSCRIPTION_ID, id));
    out.putAll(params);
    return out;
  }

  /**
   * After a tool call marked {@code domains} stale: queues {@code notifications/resources/updated}
   * on every stream opened under a scope key {@code scoped} accepts (the call's own key here, its
   * key's text when the call was announced on a subscription bus) that listens to a resource of a
   * matching router. Each update passes the egress chain with the context of the stream's own
   * request, wherever the mutation was made.
   */
  void afterToolCall(List<?> domains, Predicate<Object> scoped) {
    for (Listener listener : listeners) {
      if (!scoped.test(listener.key())) {
        continue;
      }
      for (String uri : listener.uris()) {
        FeatureRegistry.Resolved resolved = registry.resolve(uri);
        if (resolved == null || !matches(domains, resolved.resource().router())) {
          continue;
        }
        try {
          Map<String, Object> params = egress.notification(Outbound.Channel.RESOURCE_UPDATED,
              JsonRpc.RESOURCE_UPDATED, uri, Map.of("uri", uri), egress.serverContent(), -1,
              listener.request());
          if (params != null) {
            byte[] message = Bodies.notification(JsonRpc.RESOURCE_UPDATED,
                tagged(listener.id(), params));
            if (listener.channel() != null) {
              synchronized (listener) { // after the acknowledgement, never before it
                if (!listener.ended().get()) {
                  listener.channel().push(message);
                }
              }
              continue;
            }
            while (!listener.queue().offer(message)) {
              // A client too slow to read: it loses the oldest update (never replayed anyway).
              listener.queue().poll();
            }
          }
        } catch (RuntimeException e) {
          LOG.debug("Could not queue an update of {} for listen stream {}", uri, listener.id(), e);
        }
      }
    }
  }

  private static boolean matches(List<?> domains, String router) {
    for (Object domain : domains) {
      if (domain instanceof String pattern && FeatureRegistry.invalidates(pattern, router)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Ends every stream with its result (the specification's graceful end of a subscription) and
   * refuses later ones: a transport calls it when it starts to stop. Idempotent.
   */
  public void close() {
    closed = true;
    List<Listener> all = new ArrayList<>(listeners);
    for (Listener listener : all) {
      if (listener.channel() != null) {
        if (end(listener)) {
          listener.session().releaseStream(listener.id());
          listener.channel().reply(listener.id(), 0, result(listener.id()));
        }
        continue;
      }
      listener.queue().clear();
      listener.queue().offer(END);
    }
  }
}
