package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.wire.input.InputRound;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.server.FeatureCalls;
import dev.mcpfusion.core.server.FeatureError;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.FeatureRequest;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.wire.ProtocolVersions;
import dev.mcpfusion.wire.Reply;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The edge's answers to prompts, resources and completions, in both eras: {@code prompts/list},
 * {@code prompts/get}, {@code resources/list}, {@code resources/templates/list},
 * {@code resources/read}, {@code completion/complete}, and — in the classic (session) era only —
 * {@code resources/subscribe} and {@code resources/unsubscribe}.
 *
 * <p>Subscriptions are per session; a successful tool call whose {@code mcpfusion/invalidation}
 * domains match a subscribed resource's router sends {@code notifications/resources/updated} for
 * that URI to every session subscribed to it. A closed session's subscriptions are dropped. With
 * a {@code SubscriptionBus} the instances of a server share them ({@link SharedSubscriptions}).
 */
final class FeatureRequests {
  private static final Logger LOG = LoggerFactory.getLogger(FeatureRequests.class);

  static final String PROMPTS_LIST = JsonRpc.PROMPTS_LIST;
  static final String PROMPTS_GET = JsonRpc.PROMPTS_GET;
  static final String RESOURCES_LIST = JsonRpc.RESOURCES_LIST;
  static final String TEMPLATES_LIST = JsonRpc.RESOURCE_TEMPLATES_LIST;
  static final String RESOURCES_READ = JsonRpc.RESOURCES_READ;
  static final String SUBSCRIBE = JsonRpc.RESOURCES_SUBSCRIBE;
  static final String UNSUBSCRIBE = JsonRpc.RESOURCES_UNSUBSCRIBE;
  static final String COMPLETE = JsonRpc.COMPLETE;
  static final String UPDATED = JsonRpc.RESOURCE_UPDATED;

  private static final Set<String> METHODS = Set.of(PROMPTS_LIST, PROMPTS_GET, RESOURCES_LIST,
      TEMPLATES_LIST, RESOURCES_READ, SUBSCRIBE, UNSUBSCRIBE, COMPLETE);
  private static final Set<String> USER_CODE = Set.of(PROMPTS_GET, RESOURCES_READ, COMPLETE);
  /**
   * The 2026-07-28 results that must say how long a client may cache them: never, and only for
   * this caller (lists and reads depend on the caller's context and change with every mutation).
   */
  private static final Set<String> CACHEABLE = Set.of(PROMPTS_LIST, RESOURCES_LIST, TEMPLATES_LIST,
      RESOURCES_READ);

  private final FeatureCalls calls;
  private final Egress egress;
  private final String serverInfoMember;
  /** Each session's subscribed URIs, each with the subscription that asked for it. */
  private final Map<EdgeSession, Map<String, Subscription>> subscriptions = new ConcurrentHashMap<>();
  /** The scope key of every subscription when the server has no subscription scope. */
  private static final Object UNSCOPED = new Object();
  /** The scope key a scope's {@code null} is recorded as (a map holds no {@code null}). */
  private static final Object NO_KEY = new Object();

  /**
   * One subscription: the scope key it was made under, and its request, which the egress filters
   * see with every update it is sent.
   */
  /** The server's observer, for the CLIENT spans of what a handler asks its client. */
  private final FusionTracer tracer;

  private record Subscription(Object key, RequestContext request) {}

  /** The 2026-07-28 {@code subscriptions/listen} streams. */
  private final ListenStreams listens;
  /** The subscriptions shared with the server's other instances, or {@code null}: in memory here. */
  private volatile SharedSubscriptions shared;

  FeatureRequests(FeatureCalls calls, String serverInfoMember, FusionTracer tracer,
      int maxListenStreams, java.time.Duration listenHeartbeat) {
    this.calls = calls;
    this.tracer = tracer;
    this.egress = calls.egress();
    this.serverInfoMember = serverInfoMember;
    this.listens = new ListenStreams(calls.registry(), egress, serverInfoMember, maxListenStreams,
        listenHeartbeat);
  }

  ListenStreams listens() {
    return listens;
  }

  /** Shares subscriptions and mutations with the server's other instances through {@code bus}. */
  void share(dev.mcpfusion.core.SubscriptionBus bus) {
    shared = new SharedSubscriptions(bus, calls.registry(), egress, listens);
  }

  /** A session of this instance: it hears the mutations announced on the bus, if one is set. */
  EdgeSession track(EdgeSession session) {
    SharedSubscriptions bus = shared;
    if (bus != null) {
      bus.track(session);
    }
    return session;
  }

  /**
   * Serves a 2026-07-28 {@code subscriptions/listen} ({@link ListenStreams}), under the request's
   * subscription scope key: on the connection's own channel when it has a session (stdio).
   */
  @SuppressWarnings("unchecked")
  void listen(Message message, Inbound inbound, EdgeSession session, Sink out) {
    Map<?, ?> params = message.params();
    Map<String, Object> meta = params != null && params.get("_meta") instanceof Map<?, ?> m
        ? (Map<String, Object>) m : null;
    RequestContext request = RequestContext.of(inbound.headers(), meta, null,
        ProtocolVersions.MODERN, null, inbound.caller(), inbound.networkTransport());
    Object key;
    try {
      key = scopeOf(request);
    } catch (RuntimeException e) {
      String incident = ErrorReplies.newIncidentId();
      LOG.error("The subscription scope failed for a listen stream (incident {})", incident, e);
      out.reply(message.id(), JsonRpc.INTERNAL_ERROR, Bodies.error(message.id(),
          JsonRpc.INTERNAL_ERROR, "Internal error: the listen stream could not be scoped (incident "
              + incident + ").", Map.of("code", Codes.INTERNAL_ERROR, "incident", incident)));
      return;
    }
    listens.listen(message, request, key, out, session);
  }

  /**
   * The way back to the client for one request: what its handler sends passes the egress chain
   * with the redactor and byte cap of what it asks for.
   */
  CallLink link(Message message, EdgeSession session, Sink out, EdgeSession.Call call,
      boolean modernEra, Map<String, Object> meta) {
    FeatureCalls.Scope scope = calls.scope(message.method(), message.params());
    return new CallLink(session, out, call, modernEra, meta, egress, scope.answers(), scope.cap(),
        scope.target(), tracer);
  }

  FeatureRegistry registry() {
    return calls.registry();
  }

  /** Whether the edge answers {@code method} itself (only when the server has any feature). */
  boolean handles(String method) {
    FeatureRegistry r = calls.registry();
    return (r.hasPrompts() || r.hasResources()) && METHODS.contains(method);
  }

  /** Whether the edge answers the 2026-07-28 {@code method} itself: these, and listen streams. */
  boolean handlesModern(String method) {
    return JsonRpc.SUBSCRIPTIONS_LISTEN.equals(method) || handles(method);
  }

  /** Whether answering {@code method} runs user code (and may take as long as it does). */
  boolean runsUserCode(String method) {
    return USER_CODE.contains(method) && handles(method);
  }

  /**
   * Answers one request; {@code session} is {@code null} on a stateless transport. A request that
   * runs user code gets its span from {@link FeatureCalls} once it names its target; the span ends
   * here, after the answer is written, with the bytes written.
   */
  void answer(Message message, RequestContext request, EdgeSession session, Sink out,
      boolean modern) {
    Object id = message.id();
    Map<?, ?> params = message.params();
    FeatureCalls.Scope scope = null;
    // A TIMEOUT is written at the deadline, from the timer's thread, while the handler still runs.
    FeatureRequest call = new FeatureRequest(id, error -> {
      // A deadline runs only once a handler does, and its span was started before it.
      message.targetTraced();
      int code = eraCode(error.code(), modern);
      byte[] body = Bodies.error(id, code, error.getMessage(), error.data());
      out.replyWhileHeld(id, code, body);
      return body;
    });
    try {
      Map<String, Object> result = switch (message.method()) {
        case PROMPTS_LIST -> calls.listPrompts(request.caller());
        case PROMPTS_GET -> calls.getPrompt(params, request, call);
        case RESOURCES_LIST -> calls.listResources(request.caller());
        case TEMPLATES_LIST -> calls.listTemplates(request.caller());
        case RESOURCES_READ -> calls.readResource(params, request, call);
        case COMPLETE -> calls.complete(params, request, call);
        case SUBSCRIBE, UNSUBSCRIBE -> subscription(message, params, request, session, modern);
        default -> throw new IllegalStateException("not a feature method: " + message.method());
      };
      Outbound.Channel channel = channel(message.method());
      if (channel != null) {
        scope = calls.scope(message.method(), params);
        result = egress.result(channel, message.method(), scope.target(), result, scope.cap(),
            request, scope.origin());
      }
      byte[] body = modern
          ? modernResult(id, result, CACHEABLE.contains(message.method()))
          : Bodies.result(id, result);
      targetTraced(message, call);
      out.reply(id, 0, body);
      call.trace().succeeded();
      call.trace().written(body, 0);
    } catch (Egress.Refused e) {
      byte[] body = Bodies.error(id, e.code(), e.getMessage(), e.data());
      targetTraced(message, call);
      out.reply(id, e.code(), body);
      call.trace().rpcError(e.code(), FeatureError.typeOf(e.data()), e.getMessage());
      call.trace().written(body, e.code());
    } catch (FeatureError e) {
      if (call.answeredAtDeadline()) {
        // The TIMEOUT went out at the deadline; the span has its bytes.
        traced(e, eraCode(e.code(), modern), e.getMessage(), null, call.trace());
        return;
      }
      // A handler's FusionError carries its own text: it is redacted like the answer would have been.
      if (scope == null) {
        scope = calls.scope(message.method(), params);
      }
      Redactor redactor = egress.content(scope.answers());
      String text = e.getMessage();
      Object data = e.data();
      if (redactor != null) {
        Tally tally = new Tally();
        text = redactor.text(text, tally);
        if (data instanceof Map<?, ?>) {
          @SuppressWarnings("unchecked")
          Map<String, Object> tree = (Map<String, Object>) data;
          data = Egress.redact(redactor, tree, tally);
        }
      }
      int code = eraCode(e.code(), modern);
      byte[] body = Bodies.error(id, code, text, data);
      targetTraced(message, call);
      out.reply(id, code, body);
      traced(e, code, text, body, call.trace());
    } finally {
      call.trace().end();
    }
  }

  /**
   * Tells the edge that {@code call}'s span was started (it named its target), so its answer is
   * not traced again as a refusal ({@link MessageTraces#untargeted}); a request refused before
   * that has no span of its own and gets that one.
   */
  private static void targetTraced(Message message, FeatureRequest call) {
    if (call.trace() != RequestTrace.OFF) {
      message.targetTraced();
    }
  }

  /**
   * The code {@code code} is answered with in its era: a resource that does not exist is
   * {@link JsonRpc#RESOURCE_NOT_FOUND} in the 2025 era and invalid params in the 2026-07-28 era,
   * which standardizes on {@link JsonRpc#INVALID_PARAMS} for it (SEP-2164); every other code is
   * the same in both.
   */
  static int eraCode(int code, boolean modern) {
    return modern && code == JsonRpc.RESOURCE_NOT_FOUND ? JsonRpc.INVALID_PARAMS : code;
  }

  /**
   * Tells {@code trace} that the request failed with {@code error}, answered with {@code code},
   * whose message went out as {@code text} (redacted), and the bytes of {@code body} when it was
   * written here ({@code null}: written at the deadline).
   */
  private static void traced(FeatureError error, int code, String text, byte[] body,
      RequestTrace trace) {
    trace.rpcError(code, error.type(), text);
    if (error.unexpected() != null) {
      trace.unexpected(error.unexpected(), error.incident());
    }
    if (body != null) {
      trace.written(body, code);
    }
  }

  /** The egress channel of a feature method that answers with user content; {@code null} for a list. */
  private static Outbound.Channel channel(String method) {
    return switch (method) {
      case PROMPTS_GET -> Outbound.Channel.PROMPT;
      case RESOURCES_READ -> Outbound.Channel.RESOURCE;
      case COMPLETE -> Outbound.Channel.COMPLETION;
      default -> null;
    };
  }

  private Map<String, Object> subscription(Message message, Map<?, ?> params,
      RequestContext request, EdgeSession session, boolean modern) {
    if (modern || session == null) {
      throw new FeatureError(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + message.method()
          + " needs a 2025-11-25 session (initialize first); in the stateless 2026-07-28 protocol,"
          + " open a subscriptions/listen stream naming the URIs in"
          + " params.notifications.resourceSubscriptions instead.", null);
    }
    String uri = calls.subscribable(params, request.caller());
    if (SUBSCRIBE.equals(message.method())) {
      Object key;
      try {
        key = scopeOf(request);
      } catch (RuntimeException e) {
        String incident = ErrorReplies.newIncidentId();
        LOG.error("The subscription scope failed for {} (incident {})", uri, incident, e);
        throw new FeatureError(JsonRpc.INTERNAL_ERROR, "Internal error: the subscription to "
            + uri + " could not be scoped (incident " + incident + ").",
            Map.of("code", Codes.INTERNAL_ERROR, "incident", incident));
      }
      if (shared != null) {
        shared.record(session, uri, scopeText(key), true);
      } else if (!session.isClosed()) {
        subscriptions.computeIfAbsent(session, s -> new ConcurrentHashMap<>())
            .put(uri, new Subscription(key, request == null ? RequestContext.empty() : request));
      }
    } else if (shared != null) {
      shared.record(session, uri, null, false);
    } else {
      Map<String, Subscription> uris = subscriptions.get(session);
      if (uris != null) {
        uris.remove(uri);
      }
    }
    return Map.of();
  }

  /**
   * The scope key of {@code request}: {@link #UNSCOPED} when the server has no subscription scope,
   * {@link #NO_KEY} for a {@code null} key. Throws what the scope throws.
   */
  private Object scopeOf(RequestContext request) {
    Function<RequestContext, ?> scope = calls.registry().subscriptionScope();
    if (scope == null) {
      return UNSCOPED;
    }
    Object key = scope.apply(request == null ? RequestContext.empty() : request);
    return key == null ? NO_KEY : key;
  }

  /**
   * A scope key as the instances of a server compare it: by its text, the server's lack of a
   * scope and a {@code null} key each spelled so that no key's text equals it.
   */
  static String scopeText(Object key) {
    return key == UNSCOPED ? "" : key == NO_KEY ? "\u0000" : "=" + key;
  }

  /** The URIs {@code session} is subscribed to (for tests). */
  Set<String> subscriptions(EdgeSession session) {
    Map<String, Subscription> uris = subscriptions.get(session);
    return uris == null ? Set.of() : Set.copyOf(uris.keySet());
  }

  /**
   * After a tool call made with {@code request}: when it succeeded and marked domains stale, tells
   * every subscribed session and listen stream which of its resources changed, when it was made
   * under the same scope key as {@code request}'s ({@code FusionServer.Builder.subscriptionScope}).
   */
  void afterToolCall(Reply reply, RequestContext request) {
    SharedSubscriptions bus = shared;
    if (reply.isError() || (bus == null && subscriptions.isEmpty() && listens.open() == 0)
        || !(reply.meta().get(Meta.INVALIDATION) instanceof Map<?, ?> invalidation)
        || !(invalidation.get("domains") instanceof List<?> domains)) {
      return;
    }
    Object key;
    try {
      key = scopeOf(request);
    } catch (RuntimeException e) {
      // Fail closed: a mutation whose scope is unknown is announced to no one.
      LOG.warn("The subscription scope failed after a tool call; no session is notified", e);
      return;
    }
    if (bus != null) {
      // This instance's listen streams hear it from the bus, as every other instance's do: once.
      bus.publish(domains.stream().filter(String.class::isInstance).map(String.class::cast)
          .toList(), scopeText(key));
      return;
    }
    listens.afterToolCall(domains, key::equals);
    for (Map.Entry<EdgeSession, Map<String, Subscription>> entry : subscriptions.entrySet()) {
      EdgeSession session = entry.getKey();
      if (session.isClosed()) {
        subscriptions.remove(session);
        continue;
      }
      for (Map.Entry<String, Subscription> subscription : entry.getValue().entrySet()) {
        String uri = subscription.getKey();
        if (!key.equals(subscription.getValue().key())) {
          continue;
        }
        FeatureRegistry.Resolved resolved = calls.registry().resolve(uri);
        if (resolved != null && matches(domains, resolved.resource().router())) {
          try {
            Map<String, Object> params = egress.notification(Outbound.Channel.RESOURCE_UPDATED,
                UPDATED, uri, Map.of("uri", uri), egress.serverContent(), -1,
                subscription.getValue().request());
            if (params != null) {
              session.notify(UPDATED, params);
            }
          } catch (RuntimeException e) {
            LOG.debug("Could not notify session {} of {}", session.id(), uri, e);
          }
        }
      }
    }
  }

  static boolean matches(List<?> domains, String router) {
    for (Object domain : domains) {
      if (domain instanceof String pattern && FeatureRegistry.invalidates(pattern, router)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A 2026-07-28 result: the members of {@code result}, the cache members when the method's result
   * is cacheable, {@code resultType} and the server's {@code _meta}.
   */
  /**
   * A list's result in the era's shape (a 2026-07-28 one with the cache hints of every list, which
   * say {@code private}: a list filtered per caller must not be shared).
   */
  byte[] listResult(Object id, Map<String, Object> result, boolean modern) {
    return modern ? modernResult(id, result, true) : Bodies.result(id, result);
  }

  private byte[] modernResult(Object id, Map<String, Object> result, boolean cacheable) {
    StringBuilder out = new StringBuilder(256);
    out.append("{\"jsonrpc\":\"2.0\",\"id\":");
    Json.appendValue(id, out);
    out.append(",\"result\":");
    String members = Json.write(result);
    out.append(members, 0, members.length() - 1);
    if (members.length() > 2) {
      out.append(',');
    }
    if (cacheable) {
      out.append("\"ttlMs\":0,\"cacheScope\":\"private\",");
    }
    out.append("\"resultType\":\"complete\",\"_meta\":{").append(serverInfoMember).append("}}}");
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Answers a {@code prompts/*}, {@code resources/*} or {@code completion/complete} request: checks
   * its params, builds the request's context and link, and, in the 2026-07-28 era, runs it as a
   * round of input-required results when it may ask the client.
   */
  @SuppressWarnings("unchecked")
  void request(Message message, Inbound inbound, EdgeSession session, Sink out, boolean modernEra,
      InputRequired input) {
    if (modernEra && JsonRpc.SUBSCRIPTIONS_LISTEN.equals(message.method())) {
      listen(message, inbound, session, out);
      return;
    }
    Object rawParams = message.rawParams();
    if (rawParams != null && !(rawParams instanceof Map<?, ?>)) {
      out.reply(message.id(), JsonRpc.INVALID_PARAMS, Bodies.error(message.id(), JsonRpc.INVALID_PARAMS,
          "Invalid params: " + message.method() + " needs an object."));
      return;
    }
    Map<?, ?> params = message.params();
    Map<String, Object> meta = params != null && params.get("_meta") instanceof Map<?, ?> m
        ? (Map<String, Object>) m : null;
    String sessionId = session == null ? null : session.id();
    String version = modernEra ? ProtocolVersions.MODERN : Edge.protocolVersion(inbound, session);
    // A 2026-07-28 prompts/get or resources/read may ask the client, as a tools/call may (SEP-2322).
    String binding = modernEra ? InputRequired.binding(message.method(), params) : null;
    InputRound round = binding == null ? null : input.round(message, binding, out);
    if (binding != null && round == null) {
      return;
    }
    RequestRunner.run(message, session, (sink, call) -> {
      // A prompt or resource handler reaches the client (progress, logs) as a tool handler does.
      CallLink link = link(message, session, sink, call, modernEra, meta);
      link.input(round);
      RequestContext request = RequestContext.of(inbound.headers(), meta, sessionId, version, link,
          inbound.caller(), inbound.networkTransport());
      link.request(request);
      answer(message, request, session,
          round == null ? sink : input.answering(sink, round, binding), modernEra);
    }, out);
  }
}
