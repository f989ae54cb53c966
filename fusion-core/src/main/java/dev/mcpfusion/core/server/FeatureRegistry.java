package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.Complete;
import dev.mcpfusion.annotation.Prompt;
import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.CompletionContext;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Gates;
import dev.mcpfusion.core.spi.CompletionDescriptor;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.FusionSpi;
import dev.mcpfusion.core.spi.GeneratedFeatures;
import dev.mcpfusion.core.spi.PromptArgument;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import dev.mcpfusion.wire.UriTemplate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The frozen table of prompts, resources, resource templates and completions: every
 * {@code X_Features} bound, its middleware resolved and its {@code @Context} types checked, once,
 * at {@code build()}. Prompt names and resource URIs are unique across the server.
 *
 * <p>Whatever only the running server can know fails here, all problems in one
 * {@link IllegalStateException}, each line with a stable {@code [fusion/...]} code and its fix.
 */
public final class FeatureRegistry {
  /** A registry without prompts, resources or completions. */
  public static final FeatureRegistry EMPTY = new FeatureRegistry(List.of(), List.of(), null);

  /**
   * A bound prompt.
   *
   * @param features the generated class it belongs to
   * @param index its index in the descriptor's prompts
   * @param descriptor its descriptor
   * @param router its class's router name ({@code ""} when the class is not a router)
   * @param chain the middleware that runs around it: server-wide, class, method
   * @param completions the completion of each argument that has a {@code @Complete} method
   * @param limits its resolved limits (method {@code @Limits}, else its class's, else the server's)
   * @param gate the concurrency gate it shares with the others of its {@code maxConcurrent}
   *     declaration, or {@code null} when its requests are not counted
   */
  public record BoundPrompt(GeneratedFeatures features, int index, PromptDescriptor descriptor,
      String router, List<FusionMiddleware> chain, Map<String, BoundCompletion> completions,
      ActionLimits limits, ConcurrencyGate gate) {

    /** The argument called {@code name}, or {@code null}. */
    public PromptArgument argument(String name) {
      for (PromptArgument a : descriptor.arguments()) {
        if (a.name().equals(name)) {
          return a;
        }
      }
      return null;
    }

    /**
     * The limits a {@code completion/complete} of argument {@code argument} answers under: its
     * {@code @Complete} method's, or the prompt's own when the argument has no such method (its
     * values then come from the declared enum constants).
     */
    public ActionLimits completionLimits(String argument) {
      BoundCompletion completer = completions.get(argument);
      return completer == null ? limits : completer.limits();
    }
  }

  /**
   * A bound resource or resource template.
   *
   * @param features the generated class it belongs to
   * @param index its index in the descriptor's resources
   * @param descriptor its descriptor
   * @param router its class's router name ({@code ""} when the class is not a router)
   * @param chain the middleware that runs around it: server-wide, class, method
   * @param template the parsed URI template ({@code null} for a static resource)
   * @param completions the completion of each template variable that has a {@code @Complete}
   * @param limits its resolved limits (method {@code @Limits}, else its class's, else the server's)
   * @param gate the concurrency gate it shares with the others of its {@code maxConcurrent}
   *     declaration, or {@code null} when its reads are not counted
   */
  public record BoundResource(GeneratedFeatures features, int index, ResourceDescriptor descriptor,
      String router, List<FusionMiddleware> chain, UriTemplate template,
      Map<String, BoundCompletion> completions, ActionLimits limits, ConcurrencyGate gate) {

    /**
     * The limits a {@code completion/complete} of template variable {@code variable} answers
     * under: its {@code @Complete} method's, or the resource's own when it has none.
     */
    public ActionLimits completionLimits(String variable) {
      BoundCompletion completer = completions.get(variable);
      return completer == null ? limits : completer.limits();
    }
  }

  /**
   * A bound {@code @Complete} method.
   *
   * @param features the generated class it belongs to
   * @param index its index in the descriptor's completions
   * @param descriptor its descriptor
   * @param limits its resolved limits (method {@code @Limits}, else its class's, else the server's)
   * @param gate the concurrency gate it shares with the others of its {@code maxConcurrent}
   *     declaration, or {@code null} when its requests are not counted
   */
  public record BoundCompletion(GeneratedFeatures features, int index,
      CompletionDescriptor descriptor, ActionLimits limits, ConcurrencyGate gate) {}

  private final List<BoundPrompt> prompts;
  private final Map<String, BoundPrompt> promptsByName;
  private final List<BoundResource> resources;
  private final Map<String, BoundResource> staticByUri;
  private final Map<String, BoundResource> templatesByUri;
  private final Function<RequestContext, ?> subscriptionScope;
  private final boolean hasDeadlines;
  private final boolean anyUngated;
  private final List<ConcurrencyGate> gates;

  private FeatureRegistry(List<BoundPrompt> prompts, List<BoundResource> resources,
      Function<RequestContext, ?> subscriptionScope) {
    this.subscriptionScope = subscriptionScope;
    this.prompts = List.copyOf(prompts);
    Map<String, BoundPrompt> byName = new LinkedHashMap<>();
    for (BoundPrompt p : prompts) {
      byName.put(p.descriptor().name(), p);
    }
    this.promptsByName = Collections.unmodifiableMap(byName);
    this.resources = List.copyOf(resources);
    Map<String, BoundResource> statics = new LinkedHashMap<>();
    Map<String, BoundResource> templates = new LinkedHashMap<>();
    for (BoundResource r : resources) {
      (r.template() == null ? statics : templates).put(r.descriptor().uri(), r);
    }
    this.staticByUri = Collections.unmodifiableMap(statics);
    this.templatesByUri = Collections.unmodifiableMap(templates);
    List<ActionLimits> limits = new ArrayList<>();
    List<ConcurrencyGate> gated = new ArrayList<>();
    boolean ungated = false;
    for (BoundPrompt p : prompts) {
      ungated |= counted(p.limits(), p.gate(), limits, gated);
      for (BoundCompletion c : p.completions().values()) {
        ungated |= counted(c.limits(), c.gate(), limits, gated);
      }
    }
    for (BoundResource r : resources) {
      ungated |= counted(r.limits(), r.gate(), limits, gated);
      for (BoundCompletion c : r.completions().values()) {
        ungated |= counted(c.limits(), c.gate(), limits, gated);
      }
    }
    this.hasDeadlines = limits.stream().anyMatch(l -> l.timeoutMs() > 0);
    this.anyUngated = ungated;
    this.gates = List.copyOf(gated);
  }

  /** Adds {@code limits} and {@code gate}; whether the member runs user code without a gate. */
  private static boolean counted(ActionLimits limits, ConcurrencyGate gate,
      List<ActionLimits> all, List<ConcurrencyGate> gates) {
    all.add(limits);
    if (gate == null) {
      return true;
    }
    if (gates.stream().noneMatch(g -> g == gate)) {
      gates.add(gate);
    }
    return false;
  }

  /**
   * Whether any prompt, resource or completion has a deadline (a transport then lets a reply go
   * out before its handler returns).
   */
  public boolean hasDeadlines() {
    return hasDeadlines;
  }

  /** Whether some prompt, resource or completion method runs without a concurrency gate. */
  public boolean anyUngated() {
    return anyUngated;
  }

  /** The gates of the prompts, resources and completions, each once. */
  public List<ConcurrencyGate> gates() {
    return gates;
  }

  /** The prompts, in registration and source order. */
  public List<BoundPrompt> prompts() {
    return prompts;
  }

  /** The prompt called {@code name}, or {@code null}. */
  public BoundPrompt prompt(String name) {
    return promptsByName.get(name);
  }

  /** The prompt names, in order. */
  public List<String> promptNames() {
    return List.copyOf(promptsByName.keySet());
  }

  /** The static resources, in order. */
  public List<BoundResource> staticResources() {
    return List.copyOf(staticByUri.values());
  }

  /** The resource templates, in order. */
  public List<BoundResource> templates() {
    return List.copyOf(templatesByUri.values());
  }

  /** The template whose URI template is exactly {@code uriTemplate}, or {@code null}. */
  public BoundResource template(String uriTemplate) {
    return templatesByUri.get(uriTemplate);
  }

  /** Whether there is any prompt. */
  public boolean hasPrompts() {
    return !prompts.isEmpty();
  }

  /** Whether there is any resource or template. */
  public boolean hasResources() {
    return !resources.isEmpty();
  }

  /**
   * The key that decides which subscribed sessions hear of a mutation ({@code
   * FusionServer.Builder.subscriptionScope}), or {@code null}: every subscribed session does.
   */
  public Function<RequestContext, ?> subscriptionScope() {
    return subscriptionScope;
  }

  /**
   * The resource {@code uri} names, with the values its template variables take: a static
   * resource first, then the first template (in order) that matches; {@code null} when none does.
   */
  public Resolved resolve(String uri) {
    BoundResource exact = staticByUri.get(uri);
    if (exact != null) {
      return new Resolved(exact, Map.of());
    }
    for (BoundResource r : templatesByUri.values()) {
      Map<String, String> variables = r.template().match(uri);
      if (variables != null) {
        return new Resolved(r, variables);
      }
    }
    return null;
  }

  /**
   * A URI resolved to its resource.
   *
   * @param resource the resource or template
   * @param variables the template variables read from the URI (empty for a static resource)
   */
  public record Resolved(BoundResource resource, Map<String, String> variables) {}

  /**
   * Whether an {@code @Invalidates} pattern marks the resources of {@code router} stale: its router
   * part (before the first {@code .}) matches the router name, {@code *} matching any run of
   * characters ({@code billing.*}, {@code billing.invoices}, {@code *}).
   */
  public static boolean invalidates(String pattern, String router) {
    if (router == null || router.isEmpty() || pattern == null) {
      return false;
    }
    int dot = pattern.indexOf('.');
    String head = dot < 0 ? pattern : pattern.substring(0, dot);
    return glob(head, 0, router, 0);
  }

  private static boolean glob(String p, int i, String s, int j) {
    if (i == p.length()) {
      return j == s.length();
    }
    if (p.charAt(i) == '*') {
      for (int k = j; k <= s.length(); k++) {
        if (glob(p, i + 1, s, k)) {
          return true;
        }
      }
      return false;
    }
    return j < s.length() && p.charAt(i) == s.charAt(j) && glob(p, i + 1, s, j + 1);
  }

  // ---------------------------------------------------------------- building

  /** Binds every registration of {@code config} that has a generated {@code X_Features}. */
  public static FeatureRegistry build(ServerConfig config) {
    return build(config, new Gates());
  }

  /**
   * As {@link #build(ServerConfig)}, taking the concurrency gates from {@code gates}: a class's
   * {@code @Limits(maxConcurrent)} then counts its tools ({@link ToolRegistry#build(ServerConfig,
   * Gates)}) and its prompts, resources and completions together, and the server-wide limit every
   * request.
   */
  public static FeatureRegistry build(ServerConfig config, Gates gates) {
    List<String> errors = new ArrayList<>();
    MiddlewareResolver resolver = new MiddlewareResolver(config, errors);
    Set<Class<?>> provided = new HashSet<>(config.providers().keySet());
    provided.add(RequestContext.class);
    provided.add(Caller.class);
    List<BoundPrompt> prompts = new ArrayList<>();
    List<BoundResource> resources = new ArrayList<>();
    Map<String, String> promptOwners = new LinkedHashMap<>();
    Map<String, String> uriOwners = new LinkedHashMap<>();
    for (Object registration : config.registrations()) {
      GeneratedFeatures features = registration instanceof GeneratedFeatures g ? g
          : FeatureBinding.bindGenerated(registration, errors);
      if (features == null) {
        continue;
      }
      if (features.spiVersion() != FusionSpi.VERSION) {
        errors.add(BuildProblem.ROUTER_SPI_MISMATCH.text(features.getClass().getName(),
            features.spiVersion(), FusionSpi.VERSION));
        continue;
      }
      FeaturesDescriptor d = features.descriptor();
      String type = d.type().getSimpleName();
      // The class's own @Limits problems are reported once, however many members inherit them.
      List<ActionLimits.Invalid> invalid = new ArrayList<>();
      String owner = d.router().isEmpty() ? d.type().getName() : d.router();
      Map<Integer, BoundCompletion> completers = new LinkedHashMap<>();
      for (int i = 0; i < d.completions().size(); i++) {
        CompletionDescriptor c = d.completions().get(i);
        ActionLimits limits = limits(ActionLimits.ofCompletion(config.limits(), d, c, invalid),
            invalid, errors);
        completers.put(i, new BoundCompletion(features, i, c, limits,
            gates.gate(limits, owner, "complete:" + c.prompt() + c.resource() + "/" + c.argument())));
      }
      List<FusionMiddleware> classChain = new ArrayList<>(config.middleware());
      for (Class<?> m : d.middleware()) {
        FusionMiddleware resolved = resolver.resolve(m, type);
        if (resolved != null) {
          classChain.add(resolved);
        }
      }
      for (int i = 0; i < d.prompts().size(); i++) {
        PromptDescriptor p = d.prompts().get(i);
        String where = type + "." + p.methodName();
        String earlier = promptOwners.putIfAbsent(p.name(), where);
        if (earlier != null) {
          errors.add(BuildProblem.DUPLICATE_PROMPT.text(p.name(), earlier, where));
          continue;
        }
        List<FusionMiddleware> chain = chain(classChain, p.middleware(), where, resolver);
        ToolChecks.checkContext(p.contextParameters(), where, chain, provided, errors);
        ActionLimits limits = limits(ActionLimits.ofPrompt(config.limits(), d, p, invalid), invalid,
            errors);
        prompts.add(new BoundPrompt(features, i, p, d.router(), chain,
            completions(d, p.name(), null, completers), limits,
            gates.gate(limits, owner, "prompt:" + p.name())));
      }
      for (int i = 0; i < d.resources().size(); i++) {
        ResourceDescriptor r = d.resources().get(i);
        String where = type + "." + r.methodName();
        String earlier = uriOwners.putIfAbsent(r.uri(), where);
        if (earlier != null) {
          errors.add(BuildProblem.DUPLICATE_RESOURCE.text(r.uri(), earlier, where));
          continue;
        }
        List<FusionMiddleware> chain = chain(classChain, r.middleware(), where, resolver);
        ToolChecks.checkContext(r.contextParameters(), where, chain, provided, errors);
        ActionLimits limits = limits(ActionLimits.ofResource(config.limits(), d, r, invalid),
            invalid, errors);
        resources.add(new BoundResource(features, i, r, d.router(), chain,
            r.template() ? UriTemplate.parse(r.uri()) : null,
            completions(d, null, r.uri(), completers), limits,
            gates.gate(limits, owner, "resource:" + r.uri())));
      }
      Set<Class<?>> forCompletions = new HashSet<>(provided);
      forCompletions.add(CompletionContext.class);
      for (CompletionDescriptor c : d.completions()) {
        ToolChecks.checkContext(c.contextParameters(), type + "." + c.methodName(), classChain,
            forCompletions, errors);
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("FusionServer cannot start:\n" + String.join("\n", errors));
    }
    return prompts.isEmpty() && resources.isEmpty() ? EMPTY
        : new FeatureRegistry(prompts, resources, config.subscriptionScope());
  }

  private static Map<String, BoundCompletion> completions(FeaturesDescriptor d, String prompt,
      String uri, Map<Integer, BoundCompletion> completers) {
    Map<String, BoundCompletion> out = new LinkedHashMap<>();
    for (int i = 0; i < d.completions().size(); i++) {
      CompletionDescriptor c = d.completions().get(i);
      if ((prompt != null && prompt.equals(c.prompt())) || (uri != null && uri.equals(c.resource()))) {
        out.put(c.argument(), completers.get(i));
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** {@code limits}, after reporting each invalid value found since the last call. */
  private static ActionLimits limits(ActionLimits limits, List<ActionLimits.Invalid> invalid,
      List<String> errors) {
    for (ActionLimits.Invalid bad : invalid) {
      String line = BuildProblem.INVALID_LIMITS.text(bad.where(), bad.name(), bad.value(), bad.min());
      if (!errors.contains(line)) {
        errors.add(line);
      }
    }
    return limits;
  }

  private static List<FusionMiddleware> chain(List<FusionMiddleware> classChain,
      List<Class<?>> own, String where, MiddlewareResolver resolver) {
    List<FusionMiddleware> chain = new ArrayList<>(classChain);
    for (Class<?> m : own) {
      FusionMiddleware resolved = resolver.resolve(m, where);
      if (resolved != null) {
        chain.add(resolved);
      }
    }
    return List.copyOf(chain);
  }

  /** The generated class name of a class with features: {@code pkg.X_Features}, {@code pkg.Outer_Inner_Features}. */
  public static String generatedName(Class<?> type) {
    return FeatureBinding.generatedName(type);
  }

  /** Whether {@code type} (or a superclass) has prompts, resources or completions. */
  public static boolean hasFeatures(Class<?> type) {
    return FeatureBinding.hasFeatures(type);
  }
}
