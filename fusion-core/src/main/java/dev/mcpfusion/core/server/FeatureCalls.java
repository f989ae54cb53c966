package dev.mcpfusion.core.server;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.Deadlines;
import dev.mcpfusion.core.guard.Guard;
import dev.mcpfusion.core.presenter.ResultPresenter;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.wire.JsonRpc;
import java.util.List;
import java.util.Map;

/**
 * Answers {@code prompts/list}, {@code prompts/get}, {@code resources/list},
 * {@code resources/templates/list}, {@code resources/read} and {@code completion/complete} as plain
 * JSON result trees, for the edge to write in either protocol era. A request the server cannot
 * serve throws {@link FeatureError} with a message that names what exists; a handler's thrown
 * {@link FusionError} keeps its text, anything else is an internal error logged with an incident
 * id. Presenter-backed prompts and resources go through the same strip, limit and rules step as a
 * tool result ({@link ResultPresenter}), so no {@code @Hidden} value can leave.
 *
 * <p>User code runs under its member's limits ({@link Guard}: the concurrency gate and the
 * deadline, as for a tool) and, when the server traces, in the request's span, which the entry
 * points start once the request names its target ({@link FeatureRequest#trace()}).
 *
 * <p>Thread-safe.
 */
public final class FeatureCalls {
  private final FeatureRegistry registry;
  private final Egress egress;
  private final FeaturePresenter presenter;
  private final PromptCalls prompts;
  private final ResourceCalls resources;
  private final CompletionCalls completions;

  /**
   * Calls over {@code registry}, with the context providers, references and server-wide redaction
   * of {@code tools}, no egress filter, a timer of their own and no tracing.
   */
  public FeatureCalls(FeatureRegistry registry, ToolRegistry tools) {
    this(registry, tools, new Egress(List.of(), tools.defaultRedaction()), new Deadlines(),
        FusionTracer.NOOP);
  }

  /**
   * Calls over {@code registry}, with the context providers, references and server-wide redaction
   * of {@code tools}; what leaves passes {@code egress}; deadlines run on the server's
   * {@code deadlines} (the pipeline's: one timer per server) and each request gets a span from
   * {@code tracer}.
   */
  public FeatureCalls(FeatureRegistry registry, ToolRegistry tools, Egress egress,
      Deadlines deadlines, FusionTracer tracer) {
    FusionTracer traced = tracer == null ? FusionTracer.NOOP : tracer;
    this.registry = registry;
    this.egress = egress;
    this.presenter = new FeaturePresenter(tools.defaultRedaction(), tools.references());
    FeatureRunner runner = new FeatureRunner(tools.providers(), tools.references(), deadlines);
    this.prompts = new PromptCalls(registry, egress, traced, runner, presenter);
    this.resources = new ResourceCalls(registry, egress, traced, runner, presenter);
    this.completions = new CompletionCalls(registry, egress, traced, runner, presenter, prompts);
  }

  /** The egress chain what these calls answer passes. */
  public Egress egress() {
    return egress;
  }

  /**
   * What one prompt, resource or completion request answers, for the egress chain: its target
   * (the prompt name, the resource URI, the completion's prompt or template), how errors name it,
   * the redaction of its answer ({@code answers}: its view's, else the server-wide one, from which
   * {@link Egress#content} derives that of what no view shaped), and the byte cap of one message.
   */
  public record Scope(String target, String origin, Redactor answers, int cap) {}

  /** The scope of a {@code method} request with {@code params}; the server's defaults when it names nothing known. */
  public Scope scope(String method, Map<?, ?> params) {
    Object name = params == null ? null : params.get("name");
    Object uri = params == null ? null : params.get("uri");
    switch (method) {
      case JsonRpc.PROMPTS_GET -> {
        FeatureRegistry.BoundPrompt prompt = name instanceof String n ? registry.prompt(n) : null;
        if (prompt != null) {
          return new Scope(prompt.descriptor().name(),
              FeatureRunner.routerOf(prompt.router(), prompt.features()) + "/" + prompt.descriptor().name(),
              presenter.answers(prompt.descriptor().presenter()), prompt.limits().maxEgressBytes());
        }
      }
      case JsonRpc.RESOURCES_READ -> {
        FeatureRegistry.Resolved resolved = uri instanceof String u ? registry.resolve(u) : null;
        if (resolved != null) {
          FeatureRegistry.BoundResource r = resolved.resource();
          return new Scope((String) uri,
              FeatureRunner.routerOf(r.router(), r.features()) + "/" + r.descriptor().name(),
              presenter.answers(r.descriptor().presenter()), r.limits().maxEgressBytes());
        }
      }
      case JsonRpc.COMPLETE -> {
        Scope completion = completionScope(params);
        if (completion != null) {
          return completion;
        }
      }
      default -> { }
    }
    return new Scope(method, method, null, -1);
  }

  /**
   * The scope of a {@code completion/complete}: its prompt's or template's name, and the byte cap
   * of the completer it runs ({@code null} when the request names nothing known).
   */
  private Scope completionScope(Map<?, ?> params) {
    if (!(params.get("ref") instanceof Map<?, ?> ref)) {
      return null;
    }
    String argument = params.get("argument") instanceof Map<?, ?> a
        && a.get("name") instanceof String n ? n : null;
    if (ref.get("name") instanceof String promptName) {
      FeatureRegistry.BoundPrompt prompt = registry.prompt(promptName);
      ActionLimits limits = prompt == null || argument == null ? null
          : prompt.completionLimits(argument);
      return new Scope(promptName, promptName, null, limits == null ? -1 : limits.maxEgressBytes());
    }
    if (ref.get("uri") instanceof String template) {
      FeatureRegistry.BoundResource resource = registry.template(template);
      ActionLimits limits = resource == null || argument == null ? null
          : resource.completionLimits(argument);
      return new Scope(template, template, null, limits == null ? -1 : limits.maxEgressBytes());
    }
    return null;
  }

  /** The registry served. */
  public FeatureRegistry registry() {
    return registry;
  }

  /** The {@code prompts/list} result. */
  public Map<String, Object> listPrompts() {
    return listPrompts(Caller.local());
  }

  /** As {@link #listPrompts()}, without what {@code caller} lacks the scopes to see. */
  public Map<String, Object> listPrompts(Caller caller) {
    return prompts.listPrompts(caller);
  }

  /** The {@code prompts/get} result for {@code params} ({@code name}, {@code arguments}). */
  public Map<String, Object> getPrompt(Map<?, ?> params, RequestContext request) {
    return getPrompt(params, request, new FeatureRequest(null, null));
  }

  /** As {@link #getPrompt(Map, RequestContext)}, for the request {@code call} the edge answers. */
  public Map<String, Object> getPrompt(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    return prompts.getPrompt(params, request, call);
  }

  /** The {@code resources/list} result: the static resources. */
  public Map<String, Object> listResources() {
    return listResources(Caller.local());
  }

  /** As {@link #listResources()}, without what {@code caller} lacks the scopes to see. */
  public Map<String, Object> listResources(Caller caller) {
    return resources.listResources(caller);
  }

  /** The {@code resources/templates/list} result. */
  public Map<String, Object> listTemplates() {
    return listTemplates(Caller.local());
  }

  /** As {@link #listTemplates()}, without what {@code caller} lacks the scopes to see. */
  public Map<String, Object> listTemplates(Caller caller) {
    return resources.listTemplates(caller);
  }

  /**
   * The URI a {@code resources/subscribe} or {@code unsubscribe} names, checked: a string that a
   * resource or template of this server serves, whose scopes {@code caller} holds.
   */
  public String subscribable(Map<?, ?> params, Caller caller) {
    return resources.subscribable(params, caller);
  }

  /** The {@code resources/read} result for {@code params} ({@code uri}). */
  public Map<String, Object> readResource(Map<?, ?> params, RequestContext request) {
    return readResource(params, request, new FeatureRequest(null, null));
  }

  /** As {@link #readResource(Map, RequestContext)}, for the request {@code call} the edge answers. */
  public Map<String, Object> readResource(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    return resources.readResource(params, request, call);
  }

  /** The {@code completion/complete} result for {@code params} ({@code ref}, {@code argument}). */
  public Map<String, Object> complete(Map<?, ?> params, RequestContext request) {
    return complete(params, request, new FeatureRequest(null, null));
  }

  /** As {@link #complete(Map, RequestContext)}, for the request {@code call} the edge answers. */
  public Map<String, Object> complete(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    return completions.complete(params, request, call);
  }
}
