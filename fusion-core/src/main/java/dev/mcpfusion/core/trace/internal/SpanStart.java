package dev.mcpfusion.core.trace.internal;

import dev.mcpfusion.core.trace.TraceOptions;
import dev.mcpfusion.core.trace.TraceContext;
import dev.mcpfusion.core.trace.SpanAttributes;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.FusionSpan;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.ProtocolVersions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the {@link RequestTrace} of one request, or hands back {@link RequestTrace#OFF} when the
 * server does not trace: the attributes of each kind of request (the MCP, GenAI and OpenInference
 * conventions), the W3C parent, the metrics' labels, and the input on opt-in. A tracer that fails
 * to start a span leaves the request untraced, never failed. Used by the server's pipeline and
 * edge; not meant for handler code.
 */
public final class SpanStart {
  private static final Logger LOG = LoggerFactory.getLogger(SpanStart.class);
  private static final String JSON = "application/json";

  private SpanStart() {}

  /**
   * Starts the span {@code tools/call {toolName}} under the W3C parent of {@code request}
   * ({@link TraceContext#from}).
   *
   * @param router the router behind the tool, or {@code null} for an unknown tool
   * @param action the action when the tool has only one (FLAT), else {@code null}
   * @param requestId the JSON-RPC id, or {@code null} when the call came without one (in memory)
   * @param arguments the arguments as sent (recorded only on opt-in)
   */
  public static RequestTrace tool(FusionTracer tracer, String toolName, Exposition exposition,
      String router, String action, RequestContext request, Object requestId,
      Map<String, ?> arguments) {
    if (tracer == FusionTracer.NOOP) {
      return RequestTrace.OFF;
    }
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, JsonRpc.TOOLS_CALL);
    attributes.put(SpanAttributes.GEN_AI_OPERATION_NAME, SpanAttributes.GEN_AI_OPERATION_EXECUTE_TOOL);
    attributes.put(SpanAttributes.GEN_AI_TOOL_NAME, toolName);
    attributes.put(SpanAttributes.OPENINFERENCE_SPAN_KIND, SpanAttributes.OPENINFERENCE_KIND_TOOL);
    attributes.put(SpanAttributes.TOOL_NAME, toolName);
    if (router != null) {
      attributes.put(SpanAttributes.MCPFUSION_ROUTER, router);
    }
    if (action != null) {
      attributes.put(SpanAttributes.MCPFUSION_ACTION, action);
    }
    if (exposition != null) {
      attributes.put(SpanAttributes.MCPFUSION_EXPOSITION, exposition.name().toLowerCase(Locale.ROOT));
    }
    if (requestId != null) {
      // The tool call is the JSON-RPC request: its id names the call in both conventions.
      attributes.put(SpanAttributes.GEN_AI_TOOL_CALL_ID, idText(requestId));
    }
    return start(tracer, SpanAttributes.spanName(toolName), attributes, request, requestId,
        arguments == null ? Map.of() : arguments, JsonRpc.TOOLS_CALL, toolName, null);
  }

  /**
   * Starts the span {@code prompts/get {promptName}}.
   *
   * @param router the router of the prompt's class, or {@code null} (unknown prompt, or a class
   *     that is no router)
   * @param arguments the arguments as sent (recorded only on opt-in)
   */
  public static RequestTrace prompt(FusionTracer tracer, String promptName, String router,
      RequestContext request, Object requestId, Map<?, ?> arguments) {
    if (tracer == FusionTracer.NOOP) {
      return RequestTrace.OFF;
    }
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, JsonRpc.PROMPTS_GET);
    attributes.put(SpanAttributes.GEN_AI_PROMPT_NAME, promptName);
    attributes.put(SpanAttributes.OPENINFERENCE_SPAN_KIND, SpanAttributes.OPENINFERENCE_KIND_PROMPT);
    router(attributes, router);
    return start(tracer, JsonRpc.PROMPTS_GET + " " + promptName, attributes, request, requestId,
        arguments == null ? Map.of() : arguments, JsonRpc.PROMPTS_GET, null, promptName);
  }

  /**
   * Starts the span of a {@code resources/read} of {@code uri}: named after the resource's
   * declared URI — its URI template for a templated one, so that span names stay few whatever
   * URIs are read — or {@code resources/read} alone when no resource matches; the URI read is the
   * {@code mcp.resource.uri} attribute.
   *
   * @param declared the static URI or URI template that matched, or {@code null}
   * @param router the router of the resource's class, or {@code null}
   */
  public static RequestTrace resource(FusionTracer tracer, String uri, String declared,
      String router, RequestContext request, Object requestId) {
    if (tracer == FusionTracer.NOOP) {
      return RequestTrace.OFF;
    }
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, JsonRpc.RESOURCES_READ);
    attributes.put(SpanAttributes.MCP_RESOURCE_URI, uri);
    attributes.put(SpanAttributes.OPENINFERENCE_SPAN_KIND,
        SpanAttributes.OPENINFERENCE_KIND_RETRIEVER);
    router(attributes, router);
    return start(tracer, declared == null ? JsonRpc.RESOURCES_READ
        : JsonRpc.RESOURCES_READ + " " + declared, attributes, request, requestId, uri,
        JsonRpc.RESOURCES_READ, null, null);
  }

  /**
   * Starts the span of a {@code completion/complete}: named after the prompt or the resource
   * template completed, or {@code completion/complete} alone for a template that does not exist.
   *
   * @param prompt the prompt name ({@code ref/prompt}), or {@code null}
   * @param template the URI template ({@code ref/resource}) when it exists, or {@code null}
   * @param router the router of the target's class, or {@code null}
   * @param argument what the client sent to complete ({@code params.argument})
   * @param context the values the client already resolved ({@code params.context}), or {@code null}
   */
  public static RequestTrace completion(FusionTracer tracer, String prompt, String template,
      String router, RequestContext request, Object requestId, Object argument, Object context) {
    if (tracer == FusionTracer.NOOP) {
      return RequestTrace.OFF;
    }
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("argument", argument);
    if (context != null) {
      input.put("context", context);
    }
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, JsonRpc.COMPLETE);
    if (prompt != null) {
      attributes.put(SpanAttributes.GEN_AI_PROMPT_NAME, prompt);
    }
    if (template != null) {
      attributes.put(SpanAttributes.MCP_RESOURCE_URI, template);
    }
    attributes.put(SpanAttributes.OPENINFERENCE_SPAN_KIND, SpanAttributes.OPENINFERENCE_KIND_CHAIN);
    router(attributes, router);
    String target = prompt != null ? prompt : template;
    return start(tracer, target == null ? JsonRpc.COMPLETE : JsonRpc.COMPLETE + " " + target,
        attributes, request, requestId, input, JsonRpc.COMPLETE, null, prompt);
  }

  /**
   * Starts the span of a request or notification that no narrower factory covers
   * ({@code initialize}, {@code ping}, {@code notifications/cancelled}, the lists, …): named after
   * its method, with no target.
   *
   * @param requestId the JSON-RPC id, {@code null} for a notification
   * @param headers the transport headers (a parent may come from them), or {@code null}
   * @param meta the message's {@code params._meta} (a parent may come from it), or {@code null}
   * @param networkTransport {@code pipe}, {@code tcp}, or {@code null}
   */
  public static RequestTrace message(FusionTracer tracer, String method, Object requestId,
      Map<String, String> headers, Map<String, Object> meta, String sessionId,
      String protocolVersion, String networkTransport) {
    if (tracer == FusionTracer.NOOP) {
      return RequestTrace.OFF;
    }
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, method);
    RequestContext request = RequestContext.of(headers, meta, sessionId, protocolVersion, null,
        networkTransport);
    return start(tracer, method, attributes, request, requestId, null, method, null, null);
  }

  /**
   * Starts the {@code CLIENT} span of a request the server sends its client while serving a call
   * ({@code sampling/createMessage}, {@code elicitation/create}, {@code roots/list}), a child of the
   * call's span (current on this thread).
   *
   * @param requestId the id the server gave the request
   * @param target the tool, prompt or resource the call serves (not in the span name: the
   *     conventions name a client request after its method)
   */
  public static RequestTrace clientRequest(FusionTracer tracer, String method, Object requestId,
      String target) {
    FusionTracer spans = Observed.tracerOf(tracer);
    if (spans == FusionTracer.NOOP) {
      return RequestTrace.OFF;
    }
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put(SpanAttributes.MCP_METHOD_NAME, method);
    attributes.put(SpanAttributes.JSONRPC_REQUEST_ID, idText(requestId));
    if (target != null) {
      attributes.put(SpanAttributes.MCPFUSION_TARGET, target);
    }
    long start = System.nanoTime();
    FusionSpan span;
    try {
      span = spans.startClientSpan(method, Collections.unmodifiableMap(attributes));
    } catch (RuntimeException e) {
      LOG.warn("tracer {} failed to start span {}; the request goes on untraced", tracer, method, e);
      return RequestTrace.OFF;
    }
    return span == null ? RequestTrace.OFF : new RequestTrace(span, TraceOptions.DEFAULT, start);
  }

  private static void router(Map<String, Object> attributes, String router) {
    if (router != null && !router.isEmpty()) {
      attributes.put(SpanAttributes.MCPFUSION_ROUTER, router);
    }
  }

  /** Starts a span; {@code input} is a JSON tree, or a string recorded as plain text. */
  private static RequestTrace start(FusionTracer observer, String name, Map<String, Object> attributes,
      RequestContext request, Object requestId, Object input, String method, String toolName,
      String promptName) {
    long start = System.nanoTime();
    FusionMeter meter = Observed.meterOf(observer);
    FusionTracer tracer = Observed.tracerOf(observer);
    if (requestId != null) {
      attributes.put(SpanAttributes.JSONRPC_REQUEST_ID, idText(requestId));
    }
    TraceContext parent = TraceContext.EMPTY;
    String transport = null;
    String version = null;
    if (request != null) {
      version = request.protocolVersion().orElse(null);
      // A 2026-07-28 request is stateless: the connection it came on (stdio, the tester) has an id,
      // but it is no MCP session, and a dashboard grouping by mcp.session.id must not see one.
      if (!ProtocolVersions.MODERN.equals(version)) {
        request.sessionId().ifPresent(id -> attributes.put(SpanAttributes.MCP_SESSION_ID, id));
      }
      if (version != null) {
        attributes.put(SpanAttributes.MCP_PROTOCOL_VERSION, version);
      }
      transport = request.networkTransport().orElse(null);
      if (transport != null) {
        attributes.put(SpanAttributes.NETWORK_TRANSPORT, transport);
      }
      if (tracer != FusionTracer.NOOP) {
        parent = TraceContext.from(request);
      }
    }
    FusionSpan span;
    TraceOptions options;
    try {
      options = tracer.options();
      options = options == null ? TraceOptions.DEFAULT : options;
      if (options.recordCaller() && request != null && !request.caller().isLocal()) {
        request.caller().subject().ifPresent(subject -> attributes.put(SpanAttributes.USER_ID, subject));
      }
      if (options.recordInput() && input != null) {
        boolean text = input instanceof String;
        attributes.put(SpanAttributes.INPUT_VALUE, text ? (String) input : Json.write(input));
        attributes.put(SpanAttributes.INPUT_MIME_TYPE, text ? "text/plain" : JSON);
      }
      span = tracer.startSpan(name, parent, Collections.unmodifiableMap(attributes));
    } catch (RuntimeException e) {
      LOG.warn("tracer {} failed to start span {}; the request goes on untraced", tracer, name, e);
      span = null;
      options = TraceOptions.DEFAULT;
    }
    return new RequestTrace(span == null ? FusionTracer.NOOP.startSpan(name, null, Map.of()) : span,
        options, start, new RequestMeter(meter, method, toolName, promptName, transport, version));
  }

  /** A JSON-RPC id as the conventions record it: its string form. */
  private static String idText(Object id) {
    if (id instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      return Long.toString(d.longValue());
    }
    return String.valueOf(id);
  }
}
