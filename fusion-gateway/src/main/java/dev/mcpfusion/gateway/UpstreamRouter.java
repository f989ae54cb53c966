package dev.mcpfusion.gateway;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.SpanAttributes;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.core.trace.TraceContext;
import dev.mcpfusion.resilience.Upstream;
import dev.mcpfusion.wire.Codes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools of one upstream as a router the server registers like any generated one
 * ({@code FusionServer.Builder.register(GeneratedRouter)}): its calls pass the edge, the pipeline
 * (arguments checked against the upstream's schema, middleware, limits) and the egress chain like
 * every other call; its handler forwards the call through the upstream's circuit breaker.
 */
final class UpstreamRouter extends SessionRouter {
  private final UpstreamClient client;
  private final Upstream breaker;
  private final RouterDescriptor descriptor;
  private final FusionTracer tracer;
  private final DelegationMinter minter;

  UpstreamRouter(UpstreamClient client, Upstream breaker, List<ActionDescriptor> actions,
      FusionTracer tracer, CallerSessions sessions, DelegationMinter minter) {
    super(sessions);
    this.client = client;
    this.minter = minter;
    this.breaker = breaker;
    this.tracer = tracer;
    this.descriptor = RouterDescriptor.builder(client.name(), UpstreamRouter.class)
        .description("The tools of the upstream " + client.name() + ".")
        .actions(actions)
        .build();
  }

  @Override
  public RouterDescriptor descriptor() {
    return descriptor;
  }

  @Override
  Object call(int action, Map<String, ?> arguments, RequestContext request,
      CallerSessions.Session session) {
    return forward(descriptor.actions().get(action).name(), arguments, request, session);
  }

  private String forward(String tool, Map<String, ?> arguments, RequestContext request,
      CallerSessions.Session session) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, "tools/call");
    attributes.put(SpanAttributes.GEN_AI_TOOL_NAME, tool);
    attributes.put(Gateway.UPSTREAM_ATTRIBUTE, client.name());
    FusionSpan span = tracer.startClientSpan("tools/call " + tool, attributes);
    try {
      Map<String, Object> meta = carried(span, request);
      Map<String, String> headers = stringValues(meta);
      if (minter != null && client.name().equals(session.delegatedTo())) {
        // A fresh token per call: the specialist accepts each once.
        String token = minter.mint(request.caller().subject().orElse("local"), client.name(),
            session.state(), (String) meta.get(TraceContext.TRACEPARENT));
        meta.put(DelegationVerifier.META_KEY, token);
        headers.put(DelegationVerifier.HEADER, token);
      }
      Map<String, Object> response = breaker.call(
          () -> client.call(tool, arguments, meta, headers));
      String text = UpstreamResults.text(client.name(), tool, response, request);
      span.setStatus(SpanStatus.OK);
      return text;
    } catch (UpstreamFailure failure) {
      span.setStatus(SpanStatus.ERROR);
      String type = failure.kind() == UpstreamFailure.Kind.TIMEOUT
          ? Codes.TIMEOUT : Codes.UPSTREAM_UNAVAILABLE;
      span.setAttribute(SpanAttributes.ERROR_TYPE, type);
      throw UpstreamResults.failure(client.name(), tool, failure);
    } catch (FusionError error) {
      span.setAttribute(SpanAttributes.ERROR_TYPE, error.code());
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * The W3C trace context the upstream continues: the gateway's own client span when it traces,
   * else the caller's context as it came, so one trace spans every hop either way. The same
   * values go in {@code params._meta} and, for an HTTP upstream, in the headers.
   */
  private static Map<String, Object> carried(FusionSpan span, RequestContext request) {
    Map<String, Object> out = new LinkedHashMap<>();
    TraceContext caller = TraceContext.from(request);
    String traceparent = span.traceparent();
    if (traceparent == null && caller.hasParent()) {
      traceparent = caller.traceparent();
    }
    if (traceparent != null) {
      out.put(TraceContext.TRACEPARENT, traceparent);
      caller.traceState().ifPresent(s -> out.put(TraceContext.TRACESTATE, s));
    }
    caller.baggage().ifPresent(b -> out.put(TraceContext.BAGGAGE, b));
    return out;
  }

  private static Map<String, String> stringValues(Map<String, Object> values) {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, (String) v));
    return out;
  }

  /** The tools this router forwards, by their upstream names (for tests and the log). */
  List<String> toolNames() {
    List<String> names = new ArrayList<>();
    for (ActionDescriptor action : descriptor.actions()) {
      names.add(action.name());
    }
    return names;
  }

  UpstreamClient client() {
    return client;
  }

  Upstream breaker() {
    return breaker;
  }
}
