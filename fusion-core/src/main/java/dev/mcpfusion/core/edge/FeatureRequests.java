package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.json.Json;
import dev.mcpfusion.core.server.FeatureCalls;
import dev.mcpfusion.core.server.FeatureError;
import dev.mcpfusion.core.server.FeatureRegistry;
import dev.mcpfusion.core.server.FeatureRequest;
import dev.mcpfusion.core.trace.RequestTrace;
import dev.mcpfusion.core.wire.JsonRpc;
import dev.mcpfusion.core.wire.Meta;
import dev.mcpfusion.core.wire.Reply;
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
 * that URI to every session subscribed to it. A closed session's subscriptions are dropped.
 */
final class FeatureRequests {
  private static final Logger LOG = LoggerFactory.getLogger(FeatureRequests.class);

  static final String PROMPTS_LIST = "prompts/list";
  static final String PROMPTS_GET = "prompts/get";
  static final String RESOURCES_LIST = "resources/list";
  static final String TEMPLATES_LIST = "resources/templates/list";
  static final String RESOURCES_READ = "resources/read";
  static final String SUBSCRIBE = "resources/subscribe";
  static final String UNSUBSCRIBE = "resources/unsubscribe";
  static final String COMPLETE = "completion/complete";
  static final String UPDATED = "notifications/resources/updated";

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
  private final String serverInfoMember;
  /** Each session's subscribed URIs, each with the scope key its subscription was made under. */
  private final Map<EdgeSession, Map<String, Object>> subscriptions = new ConcurrentHashMap<>();
  /** The scope key of every subscription when the server has no subscription scope. */
  private static final Object UNSCOPED = new Object();
  /** The scope key a scope's {@code null} is recorded as (a map holds no {@code null}). */
  private static final Object NO_KEY = new Object();

  FeatureRequests(FeatureCalls calls, String serverInfoMember) {
    this.calls = calls;
    this.serverInfoMember = serverInfoMember;
  }

  FeatureRegistry registry() {
    return calls.registry();
  }

  /** Whether the edge answers {@code method} itself (only when the server has any feature). */
  boolean handles(String method) {
    FeatureRegistry r = calls.registry();
    return (r.hasPrompts() || r.hasResources()) && METHODS.contains(method);
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
    // A TIMEOUT is written at the deadline, from the timer's thread, while the handler still runs.
    FeatureRequest call = new FeatureRequest(id, error -> {
      byte[] body = Bodies.error(id, error.code(), error.getMessage(), error.data());
      out.replyWhileHeld(id, error.code(), body);
      return body;
    });
    try {
      Map<String, Object> result = switch (message.method()) {
        case PROMPTS_LIST -> calls.listPrompts();
        case PROMPTS_GET -> calls.getPrompt(params, request, call);
        case RESOURCES_LIST -> calls.listResources();
        case TEMPLATES_LIST -> calls.listTemplates();
        case RESOURCES_READ -> calls.readResource(params, request, call);
        case COMPLETE -> calls.complete(params, request, call);
        case SUBSCRIBE, UNSUBSCRIBE -> subscription(message, params, request, session, modern);
        default -> throw new IllegalStateException("not a feature method: " + message.method());
      };
      byte[] body = modern
          ? modernResult(id, result, CACHEABLE.contains(message.method()))
          : Bodies.result(id, result);
      out.reply(id, 0, body);
      if (call.trace() != null) {
        call.trace().succeeded();
        call.trace().written(body, 0);
      }
    } catch (FeatureError e) {
      if (call.answeredAtDeadline()) {
        // The TIMEOUT went out at the deadline; the trace has its bytes.
        traced(e, null, call.trace());
        return;
      }
      byte[] body = Bodies.error(id, e.code(), e.getMessage(), e.data());
      out.reply(id, e.code(), body);
      traced(e, body, call.trace());
    } finally {
      if (call.trace() != null) {
        call.trace().end();
      }
    }
  }

  /**
   * Tells {@code trace} (when not {@code null}) that the request failed with {@code error}, and
   * the bytes of {@code body} when it was written here ({@code null}: written at the deadline).
   */
  private void traced(FeatureError error, byte[] body, RequestTrace trace) {
    if (trace == null) {
      return;
    }
    trace.rpcError(error.code(), error.type(), error.getMessage());
    if (error.unexpected() != null) {
      trace.unexpected(error.unexpected(), error.incident());
    }
    if (body != null) {
      trace.written(body, error.code());
    }
  }

  private Map<String, Object> subscription(Message message, Map<?, ?> params,
      RequestContext request, EdgeSession session, boolean modern) {
    if (modern || session == null) {
      throw new FeatureError(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + message.method()
          + " needs a 2025-11-25 session (initialize first); the stateless 2026-07-28 protocol has"
          + " no resource subscriptions.", null);
    }
    String uri = calls.subscribable(params);
    if (SUBSCRIBE.equals(message.method())) {
      Object key;
      try {
        key = scopeOf(request);
      } catch (RuntimeException e) {
        String incident = ErrorReplies.newIncidentId();
        LOG.error("The subscription scope failed for {} (incident {})", uri, incident, e);
        throw new FeatureError(JsonRpc.INTERNAL_ERROR, "Internal error: the subscription to "
            + uri + " could not be scoped (incident " + incident + ").",
            Map.of("code", "INTERNAL_ERROR", "incident", incident));
      }
      if (!session.isClosed()) {
        subscriptions.computeIfAbsent(session, s -> new ConcurrentHashMap<>()).put(uri, key);
      }
    } else {
      Map<String, Object> uris = subscriptions.get(session);
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

  /** The URIs {@code session} is subscribed to (for tests). */
  Set<String> subscriptions(EdgeSession session) {
    Map<String, Object> uris = subscriptions.get(session);
    return uris == null ? Set.of() : Set.copyOf(uris.keySet());
  }

  /**
   * After a tool call made with {@code request}: when it succeeded and marked domains stale, tells
   * every subscribed session which of its resources changed, when its subscription was made under
   * the same scope key as {@code request}'s (see {@code FusionServer.Builder.subscriptionScope}).
   */
  void afterToolCall(Reply reply, RequestContext request) {
    if (reply.isError() || subscriptions.isEmpty()
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
    for (Map.Entry<EdgeSession, Map<String, Object>> entry : subscriptions.entrySet()) {
      EdgeSession session = entry.getKey();
      if (session.isClosed()) {
        subscriptions.remove(session);
        continue;
      }
      for (Map.Entry<String, Object> subscription : entry.getValue().entrySet()) {
        String uri = subscription.getKey();
        if (!key.equals(subscription.getValue())) {
          continue;
        }
        FeatureRegistry.Resolved resolved = calls.registry().resolve(uri);
        if (resolved != null && matches(domains, resolved.resource().router())) {
          try {
            session.notify(UPDATED, Map.of("uri", uri));
          } catch (RuntimeException e) {
            LOG.debug("Could not notify session {} of {}", session.id(), uri, e);
          }
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
   * A 2026-07-28 result: the members of {@code result}, the cache members when the method's result
   * is cacheable, {@code resultType} and the server's {@code _meta}.
   */
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
}
