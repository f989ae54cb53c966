package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.CompletionContext;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Invocation;
import dev.mcpfusion.core.PromptResult;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.core.error.ErrorReplies;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Deadlines;
import dev.mcpfusion.core.guard.Guard;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.core.presenter.ResultPresenter;
import dev.mcpfusion.core.redact.EgressRedaction;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.core.redact.Redactor;
import dev.mcpfusion.core.redact.Tally;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.Args;
import dev.mcpfusion.core.spi.ContextLookup;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.Problem;
import dev.mcpfusion.core.spi.Problems;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.wire.Codes;
import dev.mcpfusion.core.wire.Echo;
import dev.mcpfusion.core.wire.JsonRpc;
import dev.mcpfusion.core.wire.Meta;
import dev.mcpfusion.core.wire.References;
import dev.mcpfusion.core.wire.Reply;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(FeatureCalls.class);
  /** The most completion values one answer carries (the protocol's limit). */
  static final int MAX_COMPLETIONS = 100;

  private final FeatureRegistry registry;
  private final Map<Class<?>, Function<RequestContext, ?>> providers;
  private final References references;
  private final Egress egress;
  private final Redaction serverRedaction;
  private final Map<String, Presentation> presentations = new ConcurrentHashMap<>();
  private final Deadlines deadlines;
  private final FusionTracer tracer;
  /** The redaction of each presenter's answers, fitted to its view; empty for none. */
  private final Map<PresenterBinding<?, ?>, Optional<Redactor>> viewRedactors =
      new ConcurrentHashMap<>();

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
    this.registry = registry;
    this.providers = tools.providers();
    this.references = tools.references();
    this.egress = egress;
    this.serverRedaction = tools.defaultRedaction();
    this.deadlines = deadlines;
    this.tracer = tracer == null ? FusionTracer.NOOP : tracer;
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
              routerOf(prompt.router(), prompt.features()) + "/" + prompt.descriptor().name(),
              answers(prompt.descriptor().presenter()), prompt.limits().maxEgressBytes());
        }
      }
      case JsonRpc.RESOURCES_READ -> {
        FeatureRegistry.Resolved resolved = uri instanceof String u ? registry.resolve(u) : null;
        if (resolved != null) {
          FeatureRegistry.BoundResource r = resolved.resource();
          return new Scope((String) uri,
              routerOf(r.router(), r.features()) + "/" + r.descriptor().name(),
              answers(r.descriptor().presenter()), r.limits().maxEgressBytes());
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


  /** The redaction of the answers {@code binding} presents; {@code null}: the server-wide one. */
  private Redactor answers(PresenterBinding<?, ?> binding) {
    return binding == null ? null : viewRedactor(binding);
  }

  /**
   * The redaction of {@code binding}'s answers, fitted to its view: the view's {@code @Redact}, else
   * the server-wide one; {@code null} for no presenter or nothing to mask.
   */
  private Redactor viewRedactor(PresenterBinding<?, ?> binding) {
    if (binding == null) {
      return null;
    }
    return viewRedactors.computeIfAbsent(binding, b -> {
      ActionDescriptor d = syntheticDescriptor(b, b.viewType().getSimpleName(), ResultShape.SINGLE,
          ElementKind.MODEL);
      return Optional.ofNullable(Redactions.forAction(d, serverRedaction,
          Presentation.of(d).staticRules()).redactor());
    }).orElse(null);
  }

  private static ActionDescriptor syntheticDescriptor(PresenterBinding<?, ?> binding, String name,
      ResultShape shape, ElementKind kind) {
    return new ActionDescriptor(name, name, name, Verb.QUERY, true, false, false, false, List.of(),
        List.of(), binding, shape, kind, null, CachePolicy.DEFAULT, List.of(), List.of(),
        List.of(), false);
  }

  /** The registry served. */
  public FeatureRegistry registry() {
    return registry;
  }

  // ---------------------------------------------------------------- prompts

  /** The {@code prompts/list} result. */
  public Map<String, Object> listPrompts() {
    List<Object> prompts = new ArrayList<>();
    for (FeatureRegistry.BoundPrompt p : registry.prompts()) {
      Map<String, Object> prompt = new LinkedHashMap<>();
      prompt.put("name", p.descriptor().name());
      if (!p.descriptor().title().isEmpty()) {
        prompt.put("title", p.descriptor().title());
      }
      prompt.put("description", p.descriptor().description());
      List<Object> arguments = new ArrayList<>();
      for (PromptArgument a : p.descriptor().arguments()) {
        Map<String, Object> argument = new LinkedHashMap<>();
        argument.put("name", a.name());
        String description = argumentDescription(a);
        if (!description.isEmpty()) {
          argument.put("description", description);
        }
        // Explicit either way: an optional argument must read as optional to every client.
        argument.put("required", a.required());
        arguments.add(argument);
      }
      prompt.put("arguments", arguments);
      prompts.add(prompt);
    }
    return Map.of("prompts", prompts);
  }

  private static String argumentDescription(PromptArgument a) {
    if (a.values().isEmpty()) {
      return a.description();
    }
    String values = "One of: " + String.join(", ", a.values()) + ".";
    String d = a.description().strip();
    if (d.isEmpty()) {
      return values;
    }
    char last = d.charAt(d.length() - 1);
    return d + (last == '.' || last == '!' || last == '?' ? " " : ". ") + values;
  }

  /** The {@code prompts/get} result for {@code params} ({@code name}, {@code arguments}). */
  public Map<String, Object> getPrompt(Map<?, ?> params, RequestContext request) {
    return getPrompt(params, request, new FeatureRequest(null, null));
  }

  /** As {@link #getPrompt(Map, RequestContext)}, for the request {@code call} the edge answers. */
  public Map<String, Object> getPrompt(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    Object name = params == null ? null : params.get("name");
    if (!(name instanceof String promptName)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: prompts/get needs the"
          + " prompt \"name\" (a string). Prompts: " + list(registry.promptNames()) + ".", null);
    }
    FeatureRegistry.BoundPrompt prompt = registry.prompt(promptName);
    Object raw = params.get("arguments");
    if (tracer != FusionTracer.NOOP) {
      call.trace(RequestTrace.prompt(tracer, promptName,
          prompt == null ? null : routerOf(prompt.router(), prompt.features()), request, call.id(),
          raw instanceof Map<?, ?> m ? m : null));
    }
    if (prompt == null) {
      throw unknownPrompt(promptName);
    }
    if (raw != null && !(raw instanceof Map<?, ?>)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: \"arguments\" of"
          + " prompts/get must be an object of strings.", null);
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> arguments = raw == null ? Map.of() : (Map<String, ?>) raw;
    Problems problems = new Problems();
    Object[] decoded = prompt.features().decodePrompt(prompt.index(), arguments, problems);
    if (!problems.isEmpty()) {
      throw invalidArguments(prompt, problems.list());
    }
    String router = routerOf(prompt.router(), prompt.features());
    Redactor content = egress.content(viewRedactor(prompt.descriptor().presenter()));
    @SuppressWarnings("unchecked")
    Map<String, Object> answer = (Map<String, Object>) run(router, prompt.descriptor().name(),
        promptName, arguments, request, prompt.chain(), prompt.limits(), prompt.gate(), call,
        JsonRpc.INVALID_PARAMS, "prompt", null,
        ctx -> prompt.features().prompt(prompt.index(), decoded, ctx),
        result -> promptResult(prompt, result, content));
    return answer;
  }

  /**
   * The {@code prompts/get} result: the handler's own messages with what {@code content} finds
   * masked (no view shaped them), then the presented data, which its view's redaction masked.
   */
  private Map<String, Object> promptResult(FeatureRegistry.BoundPrompt prompt, Object result,
      Redactor content) {
    List<Object> messages = new ArrayList<>();
    String description = prompt.descriptor().description();
    Tally tally = new Tally();
    if (result instanceof String text) {
      messages.add(message("user", text("user", content == null ? text : content.text(text, tally))));
    } else if (result instanceof PromptResult r) {
      if (r.description() != null) {
        description = content == null ? r.description() : content.text(r.description(), tally);
      }
      for (PromptResult.Message m : r.messages()) {
        messages.add(message(m.role().wire(), Egress.redact(content, m.content(), tally)));
      }
      PresenterBinding<?, ?> binding = prompt.descriptor().presenter();
      if (r.hasData() && binding == null) {
        throw new IllegalStateException("PromptResult.data(...) was set, but @Prompt names no"
            + " presenter; add presenter = SomeView.class to @Prompt");
      }
      if (r.hasData() && r.data() != null) {
        Reply reply = present(binding, r.data(), prompt.descriptor().name());
        List<String> data = new ArrayList<>();
        String rules = null;
        for (String block : reply.blocks()) {
          if (block.startsWith("<domain_rules>")) {
            rules = block;
          } else if (!block.startsWith("<action_suggestions>")) {
            data.add(block);
          }
        }
        messages.add(message("user", text("user", String.join("\n\n", data))));
        if (rules != null) {
          messages.add(message("user", text("user", rules)));
        }
      }
    } else {
      throw new IllegalStateException(result == null ? "returned null"
          : "returned a " + result.getClass().getName() + " where a PromptResult was expected");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("description", description);
    out.put("messages", messages);
    return out;
  }

  private static Map<String, Object> text(String role, String text) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("type", "text");
    content.put("text", text);
    return content;
  }

  private static Map<String, Object> message(String role, Map<String, Object> content) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("role", role);
    message.put("content", content);
    return message;
  }

  private FeatureError unknownPrompt(String name) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_PROMPT");
    data.put("available", registry.promptNames());
    return new FeatureError(JsonRpc.INVALID_PARAMS, "The prompt " + Echo.quoted(name) + " does"
        + " not exist. Prompts: " + list(registry.promptNames()) + ".", data);
  }

  private static FeatureError invalidArguments(FeatureRegistry.BoundPrompt prompt,
      List<Problem> problems) {
    StringBuilder text = new StringBuilder("Invalid arguments for prompt \"")
        .append(prompt.descriptor().name()).append("\": ");
    List<Object> fields = new ArrayList<>();
    for (int i = 0; i < problems.size(); i++) {
      Problem p = problems.get(i);
      text.append(i == 0 ? "" : "; ").append('"').append(p.path()).append("\" ").append(p.message());
      Map<String, Object> field = new LinkedHashMap<>();
      field.put("path", p.path());
      field.put("message", p.message());
      fields.add(field);
    }
    text.append(". Arguments: ");
    List<String> arguments = new ArrayList<>();
    for (PromptArgument a : prompt.descriptor().arguments()) {
      arguments.add(a.name() + (a.required() ? " (required)" : " (optional)"));
    }
    text.append(list(arguments)).append('.');
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", Codes.VALIDATION_ERROR);
    data.put("fields", fields);
    return new FeatureError(JsonRpc.INVALID_PARAMS, text.toString(), data);
  }

  // ---------------------------------------------------------------- resources

  /** The {@code resources/list} result: the static resources. */
  public Map<String, Object> listResources() {
    List<Object> resources = new ArrayList<>();
    for (FeatureRegistry.BoundResource r : registry.staticResources()) {
      Map<String, Object> resource = describe(r.descriptor());
      resource.put("uri", r.descriptor().uri());
      resources.add(reorder(resource, "uri"));
    }
    return Map.of("resources", resources);
  }

  /** The {@code resources/templates/list} result. */
  public Map<String, Object> listTemplates() {
    List<Object> templates = new ArrayList<>();
    for (FeatureRegistry.BoundResource r : registry.templates()) {
      Map<String, Object> template = describe(r.descriptor());
      template.put("uriTemplate", r.descriptor().uri());
      templates.add(reorder(template, "uriTemplate"));
    }
    return Map.of("resourceTemplates", templates);
  }

  private static Map<String, Object> describe(ResourceDescriptor d) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", d.name());
    if (!d.title().isEmpty()) {
      out.put("title", d.title());
    }
    out.put("description", d.description());
    out.put("mimeType", d.mimeType());
    return out;
  }

  private static Map<String, Object> reorder(Map<String, Object> map, String first) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(first, map.get(first));
    map.forEach((k, v) -> {
      if (!k.equals(first)) {
        out.put(k, v);
      }
    });
    return out;
  }

  /**
   * The URI a {@code resources/subscribe} or {@code unsubscribe} names, checked: a string that a
   * resource or template of this server serves.
   */
  public String subscribable(Map<?, ?> params) {
    String uri = uri(params, "resources/subscribe");
    if (registry.resolve(uri) == null) {
      throw unknownResource(uri);
    }
    return uri;
  }

  private String uri(Map<?, ?> params, String method) {
    Object uri = params == null ? null : params.get("uri");
    if (!(uri instanceof String s)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: " + method
          + " needs the resource \"uri\" (a string). " + resourceList(), null);
    }
    return s;
  }

  /** The {@code resources/read} result for {@code params} ({@code uri}). */
  public Map<String, Object> readResource(Map<?, ?> params, RequestContext request) {
    return readResource(params, request, new FeatureRequest(null, null));
  }

  /** As {@link #readResource(Map, RequestContext)}, for the request {@code call} the edge answers. */
  public Map<String, Object> readResource(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    String uri = uri(params, "resources/read");
    FeatureRegistry.Resolved resolved = registry.resolve(uri);
    if (tracer != FusionTracer.NOOP) {
      FeatureRegistry.BoundResource r = resolved == null ? null : resolved.resource();
      call.trace(RequestTrace.resource(tracer, uri, r == null ? null : r.descriptor().uri(),
          r == null ? null : routerOf(r.router(), r.features()), request, call.id()));
    }
    if (resolved == null) {
      throw unknownResource(uri);
    }
    FeatureRegistry.BoundResource resource = resolved.resource();
    ResourceDescriptor d = resource.descriptor();
    String router = routerOf(resource.router(), resource.features());
    @SuppressWarnings("unchecked")
    Map<String, Object> answer = (Map<String, Object>) run(router, d.name(), uri,
        resolved.variables(), request, resource.chain(), resource.limits(), resource.gate(), call,
        JsonRpc.RESOURCE_NOT_FOUND, "resource", null,
        ctx -> resource.features().resource(resource.index(), resolved.variables(), ctx),
        result -> resourceResult(d, uri, result));
    return answer;
  }

  /**
   * The {@code resources/read} result of what the handler returned: its view's stripped data (which
   * the view's redaction masked), a base64 blob, or text (which the content redactor masked).
   */
  private Map<String, Object> resourceResult(ResourceDescriptor d, String uri, Object result) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("uri", uri);
    content.put("mimeType", d.mimeType());
    if (d.presenter() != null) {
      Reply reply = present(d.presenter(), result, d.name());
      content.put("text", reply.blocks().get(0));
      if (!reply.meta().isEmpty()) {
        content.put("_meta", new LinkedHashMap<>(reply.meta()));
      }
    } else if (result instanceof byte[] bytes) {
      content.put("blob", Base64.getEncoder().encodeToString(bytes));
    } else if (result instanceof String text) {
      Redactor redactor = egress.content(null);
      content.put("text", redactor == null ? text : redactor.text(text, new Tally()));
    } else {
      throw new IllegalStateException(result == null ? "returned null"
          : "returned a " + result.getClass().getName());
    }
    return Map.of("contents", List.of(content));
  }

  private FeatureError unknownResource(String uri) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_RESOURCE");
    data.put("uri", Echo.cut(uri));
    data.put("resources", uris(registry.staticResources()));
    data.put("templates", uris(registry.templates()));
    return new FeatureError(JsonRpc.RESOURCE_NOT_FOUND, "The resource " + Echo.quoted(uri)
        + " does not exist. " + resourceList(), data);
  }

  private String resourceList() {
    return "Resources: " + list(uris(registry.staticResources())) + "; templates: "
        + list(uris(registry.templates())) + ".";
  }

  private static List<String> uris(List<FeatureRegistry.BoundResource> resources) {
    List<String> out = new ArrayList<>();
    for (FeatureRegistry.BoundResource r : resources) {
      out.add(r.descriptor().uri());
    }
    return out;
  }

  // ---------------------------------------------------------------- completions

  /** The {@code completion/complete} result for {@code params} ({@code ref}, {@code argument}). */
  public Map<String, Object> complete(Map<?, ?> params, RequestContext request) {
    return complete(params, request, new FeatureRequest(null, null));
  }

  /** As {@link #complete(Map, RequestContext)}, for the request {@code call} the edge answers. */
  public Map<String, Object> complete(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    Object ref = params == null ? null : params.get("ref");
    Object argument = params == null ? null : params.get("argument");
    if (!(ref instanceof Map<?, ?> r) || !(argument instanceof Map<?, ?> a)
        || !(a.get("name") instanceof String argumentName)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: completion/complete"
          + " needs \"ref\" ({\"type\": \"ref/prompt\", \"name\": ...} or {\"type\":"
          + " \"ref/resource\", \"uri\": ...}) and \"argument\" ({\"name\": ..., \"value\": ...}).",
          null);
    }
    String value = a.get("value") instanceof String v ? v : "";
    Object type = r.get("type");
    if (tracer != FusionTracer.NOOP) {
      traceCompletion(r, type, params, request, call);
    }
    CompletionContext completion = new CompletionContext(argumentName, value,
        resolved(params.get("context")));
    List<String> values;
    if ("ref/prompt".equals(type) && r.get("name") instanceof String name) {
      FeatureRegistry.BoundPrompt prompt = registry.prompt(name);
      if (prompt == null) {
        throw unknownPrompt(name);
      }
      PromptArgument known = prompt.argument(argumentName);
      if (known == null) {
        List<String> names = new ArrayList<>();
        prompt.descriptor().arguments().forEach(x -> names.add(x.name()));
        throw unknownArgument("prompt", name, argumentName, names);
      }
      FeatureRegistry.BoundCompletion completer = prompt.completions().get(argumentName);
      values = completer != null
          ? completeWith(completer, prompt.router(), name, completion, prompt.chain(), request,
              call)
          : startingWith(known.values(), value);
    } else if ("ref/resource".equals(type) && r.get("uri") instanceof String uri) {
      FeatureRegistry.BoundResource template = registry.template(uri);
      if (template == null) {
        throw new FeatureError(JsonRpc.INVALID_PARAMS, "The resource template " + Echo.quoted(uri)
            + " does not exist. Templates: " + list(uris(registry.templates())) + ".",
            Map.of("code", "UNKNOWN_RESOURCE", "templates", uris(registry.templates())));
      }
      if (!template.descriptor().variables().contains(argumentName)) {
        throw unknownArgument("resource template", uri, argumentName,
            template.descriptor().variables());
      }
      FeatureRegistry.BoundCompletion completer = template.completions().get(argumentName);
      values = completer == null ? List.of()
          : completeWith(completer, template.router(), template.descriptor().name(), completion,
              template.chain(), request, call);
    } else {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: \"ref\" must be"
          + " {\"type\": \"ref/prompt\", \"name\": ...} or {\"type\": \"ref/resource\", \"uri\":"
          + " ...}.", null);
    }
    List<String> shown = values.size() > MAX_COMPLETIONS ? values.subList(0, MAX_COMPLETIONS) : values;
    Redactor redactor = egress.serverContent();
    List<String> sent = new ArrayList<>(shown.size());
    Tally tally = new Tally();
    for (String v : shown) {
      sent.add(redactor == null ? v : redactor.text(v, tally));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("values", sent);
    result.put("total", values.size());
    result.put("hasMore", values.size() > shown.size());
    return Map.of("completion", result);
  }

  private static FeatureError unknownArgument(String kind, String target, String argument,
      List<String> arguments) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_ARGUMENT");
    data.put("available", arguments);
    return new FeatureError(JsonRpc.INVALID_PARAMS, "The " + kind + " " + Echo.quoted(target)
        + " has no argument " + Echo.quoted(argument) + ". Its arguments: " + list(arguments) + ".",
        data);
  }

  /**
   * Starts the span of a completion: named after the prompt (as sent, like an unknown tool's) or
   * after the template when one of that URI exists.
   */
  private void traceCompletion(Map<?, ?> ref, Object type, Map<?, ?> params,
      RequestContext request, FeatureRequest call) {
    String prompt = null;
    String template = null;
    String router = null;
    if ("ref/prompt".equals(type) && ref.get("name") instanceof String name) {
      prompt = name;
      FeatureRegistry.BoundPrompt p = registry.prompt(name);
      router = p == null ? null : routerOf(p.router(), p.features());
    } else if ("ref/resource".equals(type) && ref.get("uri") instanceof String uri) {
      FeatureRegistry.BoundResource t = registry.template(uri);
      template = t == null ? null : uri;
      router = t == null ? null : routerOf(t.router(), t.features());
    }
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("argument", params.get("argument"));
    if (params.get("context") != null) {
      input.put("context", params.get("context"));
    }
    call.trace(RequestTrace.completion(tracer, prompt, template, router, request, call.id(), input));
  }

  private List<String> completeWith(FeatureRegistry.BoundCompletion completer, String router,
      String target, CompletionContext completion, List<FusionMiddleware> chain,
      RequestContext request, FeatureRequest call) {
    dev.mcpfusion.core.spi.GeneratedFeatures features = completer.features();
    Map<String, Object> args = new LinkedHashMap<>();
    args.put(completion.argument(), completion.value());
    @SuppressWarnings("unchecked")
    List<String> values = (List<String>) run(routerOf(router, features), target, target, args,
        request, chain, completer.limits(), completer.gate(), call, JsonRpc.INVALID_PARAMS,
        "completion", completion, ctx -> features.complete(completer.index(), completion.value(), ctx),
        FeatureCalls::completionValues);
    return values;
  }

  private static List<String> completionValues(Object result) {
    if (!(result instanceof List<?> list)) {
      throw new IllegalStateException("returned null");
    }
    List<String> out = new ArrayList<>();
    for (Object item : list) {
      if (item != null) {
        out.add(item.toString());
      }
    }
    return out;
  }

  /**
   * The {@code context.arguments} of a completion request: the values the client already resolved,
   * by name. A malformed context is the client's error, named.
   */
  private static Map<String, String> resolved(Object context) {
    if (context == null) {
      return Map.of();
    }
    if (!(context instanceof Map<?, ?> c)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: \"context\" must be"
          + " an object: {\"arguments\": {\"name\": \"value\"}}.", null);
    }
    Object arguments = c.get("arguments");
    if (arguments == null) {
      return Map.of();
    }
    if (!(arguments instanceof Map<?, ?> given)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: \"context.arguments\""
          + " must be an object of strings: {\"name\": \"value\"}.", null);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : given.entrySet()) {
      if (!(e.getValue() instanceof String v)) {
        throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: context.arguments "
            + Echo.quoted(String.valueOf(e.getKey())) + " must be a string, got "
            + Args.jsonType(e.getValue()) + ".", null);
      }
      out.put(String.valueOf(e.getKey()), v);
    }
    return out;
  }

  private static List<String> startingWith(List<String> values, String prefix) {
    String lower = prefix.toLowerCase(Locale.ROOT);
    List<String> out = new ArrayList<>();
    for (String v : values) {
      if (v.toLowerCase(Locale.ROOT).startsWith(lower)) {
        out.add(v);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- running

  /** One call into user code, through the middleware of its class. */
  @FunctionalInterface
  private interface Handler {
    Object call(ContextLookup context) throws Exception;
  }

  /**
   * What turns the handler's result into the answer (presenting, redacting): it runs under the
   * same deadline and gate slot as the handler, as a tool's presenter does.
   */
  @FunctionalInterface
  private interface Shape {
    Object answer(Object result) throws Exception;
  }

  /**
   * Runs one call into user code, through the middleware of its class, under its limits: the
   * concurrency gate and the deadline ({@link Guard}, as for a tool: over capacity
   * {@code SERVER_BUSY}, past the deadline {@code TIMEOUT}, answered as JSON-RPC errors), with the
   * request's span current; a completion's middleware and method also get its
   * {@link CompletionContext}. {@code shape} makes the answer of the handler's result inside the
   * deadline. Throws {@link FeatureError} for every failure.
   */
  private Object run(String router, String action, String target, Map<String, ?> arguments,
      RequestContext request, List<FusionMiddleware> chain, ActionLimits limits,
      ConcurrencyGate gate, FeatureRequest call, int userErrorCode, String kind,
      CompletionContext completion, Handler handler, Shape shape) {
    FeatureInvocation invocation = new FeatureInvocation(router, action, target, arguments,
        request == null ? RequestContext.empty() : request, providers);
    if (completion != null) {
      invocation.with(CompletionContext.class, completion);
    }
    RequestTrace trace = call.trace();
    Object result;
    try {
      if (!limits.any()) {
        return shape.answer(invoke(chain, invocation, handler, trace));
      }
      Runnable atDeadline = !call.answersAtDeadline() || limits.timeoutMs() <= 0 ? null
          : () -> call.answerAtDeadline(featureError(
              ErrorReplies.timeout(router, action, limits.timeoutMs()), userErrorCode));
      result = Guard.run(limits, gate, deadlines, atDeadline, new Guard.Refusal<>() {
        @Override
        public Object busy(ConcurrencyGate full) {
          if (trace != null) {
            trace.agentError("The server is busy.");
          }
          return new Refused(featureError(ErrorReplies.serverBusy(router, action,
              full.maxConcurrent(), full.queue()), userErrorCode));
        }

        @Override
        public Object timedOut(Throwable discarded) {
          call.answeredAtDeadline(call.answersAtDeadline());
          if (discarded != null) {
            LOG.debug("[{}/{}] the {} failed after its deadline; the failure is discarded", router,
                target, kind, discarded);
          }
          if (trace != null) {
            trace.agentError("The call did not finish within " + limits.timeoutMs() + " ms.");
          }
          return new Refused(featureError(ErrorReplies.timeout(router, action,
              limits.timeoutMs()), userErrorCode));
        }
      }, () -> shape.answer(invoke(chain, invocation, handler, trace)));
    } catch (Throwable failure) {
      Throwable cause = Pipeline.unwrap(failure);
      if (cause instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (cause instanceof FusionError error) {
        throw fusionError(error, userErrorCode);
      }
      throw internal(router, target, kind, cause);
    }
    if (result instanceof Refused refused) {
      throw refused.error();
    }
    return result;
  }

  /** A request the guard turned away: no handler can return one. */
  private record Refused(FeatureError error) {}

  /** The middleware chain and the handler, with the request's span current when there is one. */
  private static Object invoke(List<FusionMiddleware> chain, FeatureInvocation invocation,
      Handler handler, RequestTrace trace) throws Exception {
    return trace == null
        ? proceed(chain, 0, invocation, handler)
        : trace.withCurrent(() -> proceed(chain, 0, invocation, handler));
  }

  private static Object proceed(List<FusionMiddleware> chain, int position, Invocation call,
      Handler handler) throws Exception {
    if (position == chain.size()) {
      return handler.call(new ContextLookup() {
        @Override
        public <T> T get(Class<T> type) {
          return call.get(type).orElse(null);
        }
      });
    }
    return chain.get(position).invoke(call, next -> proceed(chain, position + 1, next, handler));
  }

  private FeatureError fusionError(FusionError error, int userErrorCode) {
    return featureError(ErrorReplies.fusionError(error, references), userErrorCode);
  }

  /**
   * An error envelope answered as a JSON-RPC error: its {@code <tool_error>} text as the message,
   * its {@code mcpfusion/error} entry as {@code data}, and a code by the envelope's code:
   * {@code NOT_FOUND} the method's own ({@code userErrorCode}), {@code SERVER_BUSY} and
   * {@code TIMEOUT} {@link JsonRpc#SERVER_BUSY} and {@link JsonRpc#REQUEST_TIMEOUT} (neither is the
   * client's mistake), anything else invalid params.
   */
  private static FeatureError featureError(Reply reply, int userErrorCode) {
    String type = reply.errorCode();
    int code = type == null ? JsonRpc.INVALID_PARAMS : switch (type) {
      case Codes.NOT_FOUND -> userErrorCode;
      case Codes.SERVER_BUSY -> JsonRpc.SERVER_BUSY;
      case Codes.TIMEOUT -> JsonRpc.REQUEST_TIMEOUT;
      default -> JsonRpc.INVALID_PARAMS;
    };
    return new FeatureError(code, reply.text(), reply.meta().get(Meta.ERROR));
  }

  private static FeatureError internal(String router, String sentTarget, String kind,
      Throwable cause) {
    // The target may be a URI the client sent (a template's variable can be any length).
    String target = Echo.cut(sentTarget);
    String incident = ErrorReplies.newIncidentId();
    LOG.error("[{}/{}] the {} failed unexpectedly (incident {})", router, target, kind, incident,
        cause);
    return new FeatureError(JsonRpc.INTERNAL_ERROR, "Internal error: [" + router + "/"
        + target + "] the " + kind + " failed unexpectedly (incident " + incident + ").",
        Map.of("code", Codes.INTERNAL_ERROR, "incident", incident)).unexpected(cause, incident);
  }

  private static String routerOf(String router, dev.mcpfusion.core.spi.GeneratedFeatures features) {
    return router.isEmpty() ? features.descriptor().type().getSimpleName() : router;
  }

  private static String list(List<String> names) {
    return names.isEmpty() ? "none" : String.join(", ", names);
  }

  // ---------------------------------------------------------------- presenting

  /**
   * Presents {@code data} through {@code binding}: the shape (one item, a collection, an array, an
   * {@code Optional}, a lazy {@code Iterable} or {@code Stream}) and the item kind (model, view,
   * row) are read from the value, then the same step as a tool result runs.
   */
  private Reply present(PresenterBinding<?, ?> binding, Object data, String name) {
    if (data == null) {
      throw new IllegalStateException("returned null");
    }
    ResultShape shape;
    Object sample;
    Object value = data;
    AutoCloseable close = null;
    if (data instanceof Optional<?> o) {
      shape = ResultShape.OPTIONAL;
      sample = o.orElse(null);
    } else if (data instanceof Collection<?> c) {
      shape = ResultShape.COLLECTION;
      sample = c.isEmpty() ? null : c.iterator().next();
    } else if (data instanceof Object[] array) {
      shape = ResultShape.ARRAY;
      sample = array.length == 0 ? null : array[0];
    } else if (data instanceof Stream<?> || (data instanceof Iterable<?> && !(data instanceof Map<?, ?>)
        && !(data instanceof tools.jackson.databind.JsonNode))) {
      // Lazy: look at the first item only, then hand the rest on unread.
      Iterator<?> it = data instanceof Stream<?> s ? s.iterator() : ((Iterable<?>) data).iterator();
      close = data instanceof AutoCloseable c ? c : null;
      shape = ResultShape.ITERABLE;
      sample = it.hasNext() ? it.next() : null;
      value = sample == null ? it : new Peeked(sample, it);
    } else {
      shape = ResultShape.SINGLE;
      sample = data;
    }
    ElementKind kind = sample == null || binding.modelType().isInstance(sample) ? ElementKind.MODEL
        : binding.viewType().isInstance(sample) ? ElementKind.VIEW
        : sample instanceof Map<?, ?> ? ElementKind.MAP
        : sample instanceof tools.jackson.databind.JsonNode ? ElementKind.TREE
        : ElementKind.MODEL;
    String key = binding.getClass().getName() + '/' + shape + '/' + kind;
    Presentation presentation = presentations.computeIfAbsent(key, k -> Presentation.of(
        syntheticDescriptor(binding, name, shape, kind)));
    try {
      Reply reply = ResultPresenter.present(presentation, value, references);
      // The view's own redaction, as for a tool presenting it: its @Redact paths need the view.
      Redactor redactor = viewRedactor(binding);
      return redactor == null ? reply
          : EgressRedaction.success(redactor, reply, shape, references, new Tally());
    } finally {
      if (close != null) {
        try {
          close.close();
        } catch (Exception e) {
          LOG.warn("Closing the data of {} failed", name, e);
        }
      }
    }
  }

  /** An iterator whose first item was already read. */
  private static final class Peeked implements Iterator<Object> {
    private Object first;
    private boolean firstTaken;
    private final Iterator<?> rest;

    Peeked(Object first, Iterator<?> rest) {
      this.first = first;
      this.rest = rest;
    }

    @Override
    public boolean hasNext() {
      return !firstTaken || rest.hasNext();
    }

    @Override
    public Object next() {
      if (!firstTaken) {
        firstTaken = true;
        Object out = first;
        first = null;
        return out;
      }
      return rest.next();
    }
  }
}
