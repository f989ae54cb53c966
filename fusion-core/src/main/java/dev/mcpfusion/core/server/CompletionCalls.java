package dev.mcpfusion.core.server;

import dev.mcpfusion.core.CompletionContext;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.Args;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Answers {@code completion/complete}: a prompt argument's or template variable's completer, or
 * the values a prompt argument lists.
 */
final class CompletionCalls extends FeatureAnswers {
  /** The most completion values one answer carries (the protocol's limit). */
  static final int MAX_COMPLETIONS = 100;

  private final PromptCalls prompts;

  CompletionCalls(FeatureRegistry registry, Egress egress, FusionTracer tracer, FeatureRunner runner,
      FeaturePresenter presenter, PromptCalls prompts) {
    super(registry, egress, tracer, runner, presenter);
    this.prompts = prompts;
  }

  /** The {@code completion/complete} result for {@code params} ({@code ref}, {@code argument}), for the request {@code call}. */
  Map<String, Object> complete(Map<?, ?> params, RequestContext request,
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
    traceCompletion(r, type, params, request, call);
    CompletionContext completion = new CompletionContext(argumentName, value,
        resolved(params.get("context")));
    List<String> values;
    if ("ref/prompt".equals(type) && r.get("name") instanceof String name) {
      FeatureRegistry.BoundPrompt prompt = registry.prompt(name);
      if (prompt == null) {
        throw prompts.unknownPrompt(name, request.caller());
      }
      List<String> missing = request.caller().missing(prompt.descriptor().scopes());
      if (!missing.isEmpty()) {
        throw forbidden(FeatureRunner.routerOf(prompt.router(), prompt.features()), "prompt", name,
            missing);
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
        List<String> visible = ResourceCalls.uris(registry.templates(), request.caller());
        throw new FeatureError(JsonRpc.INVALID_PARAMS, "The resource template " + Echo.quoted(uri)
            + " does not exist. Templates: " + FeatureRunner.list(visible) + ".",
            Map.of("code", "UNKNOWN_RESOURCE", "templates", visible));
      }
      List<String> missing = request.caller().missing(template.descriptor().scopes());
      if (!missing.isEmpty()) {
        throw forbidden(FeatureRunner.routerOf(template.router(), template.features()),
            "resource template", uri, missing);
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
        + " has no argument " + Echo.quoted(argument) + ". Its arguments: " + FeatureRunner.list(arguments) + ".",
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
      router = p == null ? null : FeatureRunner.routerOf(p.router(), p.features());
    } else if ("ref/resource".equals(type) && ref.get("uri") instanceof String uri) {
      FeatureRegistry.BoundResource t = registry.template(uri);
      template = t == null ? null : uri;
      router = t == null ? null : FeatureRunner.routerOf(t.router(), t.features());
    }
    call.trace(SpanStart.completion(tracer, prompt, template, router, request, call.id(),
        params.get("argument"), params.get("context")));
    if (prompt != null && registry.prompt(prompt) == null) {
      call.trace().unknownTarget();
    }
  }

  private List<String> completeWith(FeatureRegistry.BoundCompletion completer, String router,
      String target, CompletionContext completion, List<FusionMiddleware> chain,
      RequestContext request, FeatureRequest call) {
    dev.mcpfusion.core.spi.GeneratedFeatures features = completer.features();
    Map<String, Object> args = new LinkedHashMap<>();
    args.put(completion.argument(), completion.value());
    @SuppressWarnings("unchecked")
    List<String> values = (List<String>) runner.run(FeatureRunner.routerOf(router, features), target, target, args,
        request, chain, completer.limits(), completer.gate(), call, JsonRpc.INVALID_PARAMS,
        "completion", completion, ctx -> features.complete(completer.index(), completion.value(), ctx),
        CompletionCalls::completionValues);
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

}
