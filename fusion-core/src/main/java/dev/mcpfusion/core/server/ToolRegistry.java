package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Gates;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.core.redact.DetailPresenter;
import dev.mcpfusion.core.redact.PathPattern;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.core.redact.Redactor;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ContextParameter;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.FusionSpi;
import dev.mcpfusion.core.spi.GeneratedRouter;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.Reference;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.wire.References;
import dev.mcpfusion.core.wire.Toon;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The frozen tool table: every router bound, every {@code @Use} middleware resolved, every
 * {@code @Context} type checked, every tool named and described, once, at {@code build()}.
 *
 * <p>Whatever only the running server can know fails here, all problems in one
 * {@link IllegalStateException}, each line with a stable {@code [fusion/...]} code, the element
 * at fault and the fix.
 */
public final class ToolRegistry {
  /** MCP tool names the stricter clients accept. */
  public static final Pattern TOOL_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");

  /** The fix for a missing generated class. */
  public static final String PROCESSOR_FIX = "add fusion-processor to the maven-compiler-plugin "
      + "annotationProcessorPaths (JDK 23+ no longer runs processors found on the classpath)";

  private final Exposition exposition;
  private final String separator;
  private final List<ExposedTool> tools;
  private final Map<String, ExposedTool> byName;
  private final List<McpSchema.Tool> mcpTools;
  private final List<String> toolNames;
  private final Map<String, String> rendered;
  private final Map<Class<?>, Function<RequestContext, ?>> providers;
  private final boolean hasDeadlines;
  private final int callCapacity;
  private final Redactor defaultRedactor;
  private final DetailPresenter detailPresenter;

  private ToolRegistry(Exposition exposition, String separator, List<ExposedTool> tools,
      Map<String, String> rendered, Map<Class<?>, Function<RequestContext, ?>> providers,
      Redactor defaultRedactor, DetailPresenter detailPresenter) {
    this.exposition = exposition;
    this.separator = separator;
    this.tools = List.copyOf(tools);
    Map<String, ExposedTool> map = new LinkedHashMap<>();
    List<McpSchema.Tool> mcp = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (ExposedTool tool : tools) {
      map.put(tool.name(), tool);
      mcp.add(tool.tool());
      names.add(tool.name());
    }
    this.byName = Collections.unmodifiableMap(map);
    this.mcpTools = List.copyOf(mcp);
    this.toolNames = List.copyOf(names);
    this.rendered = Collections.unmodifiableMap(new HashMap<>(rendered));
    this.providers = providers;
    this.hasDeadlines = anyDeadline(this.tools);
    this.callCapacity = capacity(this.tools);
    this.defaultRedactor = defaultRedactor;
    this.detailPresenter = detailPresenter;
  }

  /** The server-wide redaction, for replies not tied to one action; {@code null} when there is none. */
  public Redactor defaultRedactor() {
    return defaultRedactor;
  }

  /** The server-wide redaction policy ({@link Redaction#none()} when there is none). */
  public Redaction defaultRedaction() {
    return defaultRedactor == null ? Redaction.none() : defaultRedactor.policy();
  }

  /** Renders views and models in {@code FusionError} details through their presenters. */
  public DetailPresenter detailPresenter() {
    return detailPresenter;
  }

  /** The exposition the tools were built for. */
  public Exposition exposition() {
    return exposition;
  }

  /** The FLAT separator. */
  public String separator() {
    return separator;
  }

  /** The tools, in registration order. */
  public List<ExposedTool> tools() {
    return tools;
  }

  /** The tool called {@code name}, or {@code null}. */
  public ExposedTool tool(String name) {
    return byName.get(name);
  }

  /** The MCP tools, exactly what {@code tools/list} returns. */
  public List<McpSchema.Tool> mcpTools() {
    return mcpTools;
  }

  /** The tool names, in order. */
  public List<String> toolNames() {
    return toolNames;
  }

  /** The typed context providers. */
  public Map<Class<?>, Function<RequestContext, ?>> providers() {
    return providers;
  }

  /** Whether any action has a deadline (a transport then lets a reply go out before its handler returns). */
  public boolean hasDeadlines() {
    return hasDeadlines;
  }

  private static boolean anyDeadline(List<ExposedTool> tools) {
    for (ExposedTool tool : tools) {
      for (BoundAction action : tool.actions().values()) {
        if (action.limits().timeoutMs() > 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The most calls the concurrency gates let in at once (running and waiting), or
   * {@link Integer#MAX_VALUE} when some action has no gate: a transport that gives each call a
   * thread needs no more threads than this.
   */
  public int callCapacity() {
    return callCapacity;
  }

  private static int capacity(List<ExposedTool> tools) {
    List<ConcurrencyGate> gates = new ArrayList<>();
    for (ExposedTool tool : tools) {
      for (BoundAction action : tool.actions().values()) {
        if (action.gate() == null) {
          return Integer.MAX_VALUE;
        }
        gates.add(action.gate());
      }
    }
    return Gates.capacity(gates);
  }

  /** The gates of the actions, each once (empty when no action is gated). */
  public List<ConcurrencyGate> gates() {
    List<ConcurrencyGate> gates = new ArrayList<>();
    for (ExposedTool tool : tools) {
      for (BoundAction action : tool.actions().values()) {
        if (action.gate() != null && gates.stream().noneMatch(g -> g == action.gate())) {
          gates.add(action.gate());
        }
      }
    }
    return gates;
  }

  /** Renders logical references as this exposition calls them; unknown ones as written. */
  public References references() {
    return reference -> rendered.getOrDefault(reference, reference);
  }

  /** Binds, checks and exposes everything {@code config} names. */
  public static ToolRegistry build(ServerConfig config) {
    return build(config, new Gates());
  }

  /**
   * As {@link #build(ServerConfig)}, taking the concurrency gates from {@code gates}, which the
   * server's prompts, resources and completions share ({@link FeatureRegistry#build(ServerConfig,
   * Gates)}).
   */
  public static ToolRegistry build(ServerConfig config, Gates gates) {
    List<String> errors = new ArrayList<>();
    String separator = config.separator();
    if (!"_".equals(separator) && !"-".equals(separator)) {
      errors.add(BuildProblem.INVALID_SEPARATOR.text(separator));
      separator = "_";
    }

    List<BoundRouter> routers = new ArrayList<>();
    for (Object registration : config.registrations()) {
      if (featuresOnly(registration)) {
        continue; // prompts, resources and completions only: FeatureRegistry binds it
      }
      BoundRouter bound = bind(registration, errors);
      if (bound != null) {
        routers.add(bound);
      }
    }

    Map<String, BoundRouter> byName = new LinkedHashMap<>();
    for (BoundRouter router : routers) {
      BoundRouter earlier = byName.putIfAbsent(router.name(), router);
      if (earlier != null) {
        errors.add(BuildProblem.DUPLICATE_ROUTER.text(router.name(), typeName(earlier),
            typeName(router)));
      }
    }

    checkInvalidates(byName, errors);

    MiddlewareResolver resolver = new MiddlewareResolver(config, errors);
    List<ActionLimits.Invalid> invalidLimits = new ArrayList<>();
    Set<Class<?>> provided = new HashSet<>(config.providers().keySet());
    provided.add(RequestContext.class);

    Redactor defaultRedactor = null;
    try {
      defaultRedactor = Redactor.compile(config.redaction());
    } catch (PathPattern.InvalidPath e) {
      errors.add(BuildProblem.REDACT_PATH_INVALID.text("FusionServer.Builder.redact(...)",
          e.path(), e.segment()));
    }
    List<PresenterBinding<?, ?>> presenters = new ArrayList<>();
    // Without jtoon the text descriptions are served to the other checks; build() fails anyway.
    boolean toon = config.toonDescriptions() && Toon.available();
    if (config.toonDescriptions() && !toon) {
      errors.add(BuildProblem.TOON_DESCRIPTIONS_MISSING.text());
    }

    List<ExposedTool> exposed = new ArrayList<>();
    Map<String, String> rendered = new HashMap<>();
    Map<String, String> toolOwners = new HashMap<>();
    for (BoundRouter router : byName.values()) {
      RouterDescriptor descriptor = router.descriptor();
      if (descriptor.actions().isEmpty()) {
        if (FeatureRegistry.hasFeatures(descriptor.routerType())) {
          continue; // a router of prompts and resources only exposes no tool
        }
        errors.add(BuildProblem.NO_ACTIONS.text(router.name(), typeName(router)));
        continue;
      }
      List<FusionMiddleware> routerChain = new ArrayList<>(config.middleware());
      for (Class<?> type : descriptor.middleware()) {
        FusionMiddleware m = resolver.resolve(type, "router '" + router.name() + "' ("
            + typeName(router) + ")");
        if (m != null) {
          routerChain.add(m);
        }
      }
      List<BoundAction> actions = new ArrayList<>();
      for (int i = 0; i < descriptor.actions().size(); i++) {
        ActionDescriptor action = descriptor.actions().get(i);
        String where = typeName(router) + "." + action.methodName();
        List<FusionMiddleware> chain = new ArrayList<>(routerChain);
        for (Class<?> type : action.middleware()) {
          FusionMiddleware m = resolver.resolve(type, where);
          if (m != null) {
            chain.add(m);
          }
        }
        checkContext(action, where, chain, provided, errors);
        boolean presenterFits = action.presenter() == null
            || action.presenter().spiVersion() == FusionSpi.VERSION;
        if (!presenterFits) {
          errors.add(BuildProblem.PRESENTER_SPI_MISMATCH.text(
              action.presenter().getClass().getName(), where, action.presenter().spiVersion(),
              FusionSpi.VERSION));
        }
        ExecutableTarget executable = action.beanValidation()
            ? executableTarget(router, action, where, errors)
            : null;
        Presentation presentation = null;
        try {
          // A presenter of another SPI version may lack the methods: it is reported above instead.
          presentation = presenterFits ? Presentation.of(action) : null;
        } catch (RuntimeException e) {
          errors.add(BuildProblem.PRESENTER_FAILED.text(where, e));
        }
        if (presenterFits && action.presenter() != null
            && action.presenter().format() == Format.TOON && !Toon.available()) {
          errors.add(BuildProblem.TOON_MISSING.text(where,
              action.presenter().viewType().getSimpleName()));
        }
        Redactor redactor = null;
        if (presentation != null) {
          redactor = redactor(action, presentation, config, where,
              defaultRedactor != null || config.redaction().isEmpty(), errors);
          if (action.presenter() != null) {
            presenters.add(action.presenter());
          }
        }
        int reported = invalidLimits.size();
        ActionLimits limits = ActionLimits.resolve(config.limits(), descriptor.routerType(),
            actionMethod(descriptor, action), where, invalidLimits);
        for (ActionLimits.Invalid bad : invalidLimits.subList(reported, invalidLimits.size())) {
          errors.add(BuildProblem.INVALID_LIMITS.text(bad.where(), bad.name(), bad.value(), bad.min()));
        }
        actions.add(new BoundAction(router, i, action, chain, executable, presentation, redactor,
            limits, gates.gate(limits, router.name(), action.name())));
      }

      if (config.exposition() == Exposition.GROUPED) {
        for (BoundAction action : actions) {
          rendered.put(action.reference(), router.name() + " (action: " + action.name() + ")");
          for (FieldDescriptor field : action.descriptor().fields()) {
            if (Exposer.DISCRIMINATOR.equals(field.name())) {
              errors.add(BuildProblem.DISCRIMINATOR_CLASH.text(typeName(router),
                  action.descriptor().methodName()));
            }
          }
        }
        String toolName = router.name();
        if (checkToolName(toolName, typeName(router), toolOwners, errors)) {
          Map<String, BoundAction> byAction = new LinkedHashMap<>();
          List<String> renderedActions = new ArrayList<>();
          for (BoundAction action : actions) {
            byAction.put(action.name(), action);
            renderedActions.add(rendered.get(action.reference()));
          }
          exposed.add(new ExposedTool(Exposer.groupedTool(descriptor, toon), router, true, byAction,
              renderedActions));
        }
      } else {
        for (BoundAction action : actions) {
          String toolName = router.name() + separator + action.name();
          rendered.put(action.reference(), toolName);
          if (checkToolName(toolName, typeName(router) + "." + action.descriptor().methodName(),
              toolOwners, errors)) {
            exposed.add(new ExposedTool(Exposer.flatTool(toolName, action.descriptor()), router,
                false, Map.of(action.name(), action), List.of(toolName)));
          }
        }
      }
    }

    if (!errors.isEmpty()) {
      throw new IllegalStateException(
          "FusionServer cannot start:\n" + String.join("\n", errors));
    }
    return new ToolRegistry(config.exposition(), separator, exposed, rendered, config.providers(),
        defaultRedactor, new DetailPresenter(presenters));
  }

  /**
   * {@code @Invalidates} patterns, and the {@code Suggestion}/{@code FusionError} references the
   * processor left to us (a router's and the presenters' of its actions), name registered routers
   * (and, unless a wildcard, their actions): the processor checks those of its own compilation; a
   * router of another module is only known here. A reference listed twice (a presenter nested in
   * a router, or shared by several actions) is reported once.
   */
  private static void checkInvalidates(Map<String, BoundRouter> routers, List<String> errors) {
    Map<String, List<String>> actionsOf = new LinkedHashMap<>();
    for (BoundRouter router : routers.values()) {
      List<String> names = new ArrayList<>();
      for (ActionDescriptor action : router.descriptor().actions()) {
        names.add(action.name());
      }
      actionsOf.put(router.name(), names);
    }
    Set<Reference> references = new LinkedHashSet<>();
    for (BoundRouter router : routers.values()) {
      for (ActionDescriptor action : router.descriptor().actions()) {
        String where = "@Invalidates on " + typeName(router) + "." + action.methodName();
        for (String pattern : action.invalidates()) {
          references.add(new Reference(where, pattern));
        }
      }
      // Suggestion and FusionError references to routers outside the router's compilation.
      references.addAll(router.router().references());
      for (ActionDescriptor action : router.descriptor().actions()) {
        if (action.presenter() != null) {
          references.addAll(action.presenter().references());
        }
      }
    }
    for (Reference reference : references) {
      String where = reference.site();
      String pattern = reference.target();
      int dot = pattern.indexOf('.');
      if (pattern.equals("*") || dot < 0) {
        continue;
      }
      String routerName = pattern.substring(0, dot);
      String actionName = pattern.substring(dot + 1);
      List<String> actions = actionsOf.get(routerName);
      if (actions == null) {
        String near = nearest(routerName, actionsOf.keySet());
        errors.add(BuildProblem.UNKNOWN_ROUTER_REFERENCE.text(where, pattern, routerName,
            near == null ? "" : " Did you mean '" + near + "." + actionName + "'?",
            String.join(", ", actionsOf.keySet())));
      } else if (!actionName.contains("*") && !actions.contains(actionName)) {
        List<String> qualified = new ArrayList<>();
        for (String a : actions) {
          qualified.add(routerName + "." + a);
        }
        String near = nearest(pattern, qualified);
        errors.add(BuildProblem.UNKNOWN_ACTION_REFERENCE.text(where, pattern, routerName,
            actionName, near == null ? "" : " Did you mean '" + near + "'?",
            String.join(", ", qualified)));
      }
    }
  }

  /**
   * The redaction of one action, with each path that does not fit its view reported; a malformed
   * server-wide path is reported once, where the default is compiled ({@code defaultOk} false).
   */
  private static Redactor redactor(ActionDescriptor action, Presentation presentation,
      ServerConfig config, String where, boolean defaultOk, List<String> errors) {
    Redactions.Fitted fitted;
    try {
      fitted = Redactions.forAction(action, config.redaction(), presentation.staticRules());
    } catch (PathPattern.InvalidPath e) {
      if (defaultOk || Redactions.policy(action, config.redaction()) != config.redaction()) {
        errors.add(BuildProblem.REDACT_PATH_INVALID.text(where, e.path(), e.segment()));
      }
      return null;
    }
    String view = action.presenter() == null ? "" : action.presenter().viewType().getSimpleName();
    for (Redactor.PathProblem p : fitted.problems()) {
      errors.add(p.field() == null
          ? BuildProblem.REDACT_PATH_UNMATCHED.text(p.path(), view)
          : BuildProblem.REDACT_PATH_NOT_TEXT.text(p.path(), view, p.field(), p.kind()));
    }
    return fitted.redactor();
  }

  /** The candidate within a small edit distance of {@code name}, or {@code null}. */
  private static String nearest(String name, java.util.Collection<String> candidates) {
    String best = null;
    int bestDistance = Math.max(2, name.length() / 3) + 1;
    for (String c : candidates) {
      int[] prev = new int[c.length() + 1];
      for (int j = 0; j <= c.length(); j++) {
        prev[j] = j;
      }
      for (int i = 1; i <= name.length(); i++) {
        int[] cur = new int[c.length() + 1];
        cur[0] = i;
        for (int j = 1; j <= c.length(); j++) {
          int cost = name.charAt(i - 1) == c.charAt(j - 1) ? 0 : 1;
          cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
        }
        prev = cur;
      }
      if (prev[c.length()] < bestDistance) {
        best = c;
        bestDistance = prev[c.length()];
      }
    }
    return best;
  }

  private static boolean checkToolName(String toolName, String where, Map<String, String> owners,
      List<String> errors) {
    if (!TOOL_NAME.matcher(toolName).matches()) {
      errors.add(BuildProblem.INVALID_TOOL_NAME.text(toolName, where));
      return false;
    }
    String earlier = owners.putIfAbsent(toolName, where);
    if (earlier != null) {
      errors.add(BuildProblem.DUPLICATE_TOOL_NAME.text(toolName, earlier, where));
      return false;
    }
    return true;
  }

  private static void checkContext(ActionDescriptor action, String where,
      List<FusionMiddleware> chain, Set<Class<?>> provided, List<String> errors) {
    Set<Class<?>> available = new HashSet<>(provided);
    for (FusionMiddleware m : chain) {
      Set<Class<?>> types = m.provides();
      if (types != null) {
        available.addAll(types);
      }
    }
    for (ContextParameter parameter : action.contextParameters()) {
      if (!available.contains(parameter.type())) {
        errors.add(BuildProblem.CONTEXT_NOT_PROVIDED.text(where, parameter.name(),
            parameter.type().getSimpleName()));
      }
    }
  }

  // ---------------------------------------------------------------- binding

  /** A registration that has prompts, resources or completions but no {@code @Router} tools. */
  private static boolean featuresOnly(Object registration) {
    if (registration instanceof dev.mcpfusion.core.spi.GeneratedFeatures) {
      return true;
    }
    if (registration instanceof GeneratedRouter) {
      return false;
    }
    for (Class<?> t = registration.getClass(); t != null; t = t.getSuperclass()) {
      if (t.isAnnotationPresent(Router.class)) {
        return false;
      }
    }
    return FeatureRegistry.hasFeatures(registration.getClass());
  }

  private static BoundRouter bind(Object registration, List<String> errors) {
    GeneratedRouter router;
    Object target = null;
    if (registration instanceof GeneratedRouter generated) {
      router = generated;
    } else {
      target = registration;
      router = bindGenerated(registration, errors);
      if (router == null) {
        return null;
      }
    }
    RouterDescriptor descriptor = router.descriptor();
    if (router.spiVersion() != FusionSpi.VERSION) {
      errors.add(BuildProblem.ROUTER_SPI_MISMATCH.text(router.getClass().getName(),
          router.spiVersion(), FusionSpi.VERSION));
      return null;
    }
    return new BoundRouter(router, descriptor, target);
  }

  /** The generated class name of a {@code @Router} class: {@code pkg.X_Fusion}, {@code pkg.Outer_Inner_Fusion}. */
  public static String generatedName(Class<?> type) {
    String pkg = type.getPackageName();
    String binary = type.getName();
    String local = pkg.isEmpty() ? binary : binary.substring(pkg.length() + 1);
    return (pkg.isEmpty() ? "" : pkg + ".") + local.replace('$', '_') + "_Fusion";
  }

  private static GeneratedRouter bindGenerated(Object target, List<String> errors) {
    // A subclass (a framework proxy, say) of a @Router class binds as that class.
    Class<?> type = target.getClass();
    while (type != null && !type.isAnnotationPresent(Router.class)) {
      type = type.getSuperclass();
    }
    if (type == null) {
      // Prompts, resources and completions without their generated class: the processor did not
      // run, and annotating the class @Router would not help.
      Class<?> features = FeatureRegistry.declaringFeatures(target.getClass());
      errors.add(features != null
          ? BuildProblem.GENERATED_FEATURES_MISSING.text(FeatureRegistry.generatedName(features),
              features.getName())
          : BuildProblem.NOT_A_ROUTER.text(target.getClass().getName()));
      return null;
    }
    String name = generatedName(type);
    ClassLoader loader = type.getClassLoader() != null
        ? type.getClassLoader()
        : ClassLoader.getSystemClassLoader();
    Class<?> generated;
    try {
      generated = Class.forName(name, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      errors.add(BuildProblem.GENERATED_CLASS_MISSING.text(name, type.getName()));
      return null;
    }
    Method bind = null;
    for (Method m : generated.getMethods()) {
      if (m.getName().equals("bind") && Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == 1 && m.getParameterTypes()[0].isAssignableFrom(type)
          && GeneratedRouter.class.isAssignableFrom(m.getReturnType())) {
        bind = m;
        break;
      }
    }
    if (bind == null) {
      errors.add(BuildProblem.GENERATED_BIND_MISSING.text(name, type.getSimpleName()));
      return null;
    }
    try {
      return (GeneratedRouter) bind.invoke(null, target);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(BuildProblem.BIND_FAILED.text(name), e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(BuildProblem.BIND_INACCESSIBLE.text(name), e);
    }
  }

  /** The action's method, for its {@code @Limits}; {@code null} when it cannot be found. */
  private static Method actionMethod(RouterDescriptor router, ActionDescriptor action) {
    try {
      return router.routerType().getDeclaredMethod(action.methodName(),
          action.parameterTypes().toArray(new Class<?>[0]));
    } catch (NoSuchMethodException | SecurityException e) {
      return null;
    }
  }

  private static ExecutableTarget executableTarget(BoundRouter router, ActionDescriptor action,
      String where, List<String> errors) {
    if (router.target() == null) {
      errors.add(BuildProblem.BEAN_VALIDATION_NEEDS_INSTANCE.text(where, typeName(router)));
      return null;
    }
    Method method;
    try {
      method = router.descriptor().routerType().getDeclaredMethod(action.methodName(),
          action.parameterTypes().toArray(new Class<?>[0]));
    } catch (NoSuchMethodException e) {
      errors.add(BuildProblem.GENERATED_METHOD_MISSING.text(where, action.parameterTypes()));
      return null;
    }
    List<String> commonNames = new ArrayList<>();
    for (FieldDescriptor common : router.descriptor().commonFields()) {
      commonNames.add(common.name());
    }
    List<String> ownFields = new ArrayList<>();
    for (FieldDescriptor field : action.fields()) {
      if (!field.common()) {
        ownFields.add(field.name());
      }
    }
    List<String> slots = new ArrayList<>();
    int next = 0;
    for (Parameter parameter : method.getParameters()) {
      Class<?> type = parameter.getType();
      if (parameter.isAnnotationPresent(Context.class) || type == RequestContext.class) {
        slots.add(null);
      } else if (!commonNames.isEmpty() && type.isRecord() && componentNames(type).equals(commonNames)) {
        slots.add(ExecutableTarget.COMMON);
      } else {
        slots.add(next < ownFields.size() ? ownFields.get(next++) : parameter.getName());
      }
    }
    return new ExecutableTarget(router.target(), method, slots);
  }

  private static List<String> componentNames(Class<?> record) {
    List<String> names = new ArrayList<>();
    for (RecordComponent component : record.getRecordComponents()) {
      names.add(component.getName());
    }
    return names;
  }

  private static String typeName(BoundRouter router) {
    Class<?> type = router.descriptor().routerType();
    return type == null ? router.name() : type.getSimpleName();
  }

  /** Finds or makes the instance for each {@code @Use} class, once per class. */
  static final class MiddlewareResolver {
    private final ServerConfig config;
    private final List<String> errors;
    private final Map<Class<?>, FusionMiddleware> made = new HashMap<>();

    MiddlewareResolver(ServerConfig config, List<String> errors) {
      this.config = config;
      this.errors = errors;
    }

    FusionMiddleware resolve(Class<?> type, String where) {
      if (!FusionMiddleware.class.isAssignableFrom(type)) {
        errors.add(BuildProblem.NOT_A_MIDDLEWARE.text(type.getSimpleName(), where, type.getName()));
        return null;
      }
      for (List<FusionMiddleware> instances : List.of(config.provided(), config.middleware())) {
        for (FusionMiddleware m : instances) {
          if (m.getClass() == type) {
            return m;
          }
        }
      }
      for (FusionMiddleware m : config.provided()) {
        if (type.isInstance(m)) {
          return m;
        }
      }
      if (made.containsKey(type)) {
        return made.get(type);
      }
      FusionMiddleware m = construct(type, where);
      made.put(type, m);
      return m;
    }

    private FusionMiddleware construct(Class<?> type, String where) {
      String simple = type.getSimpleName();
      if (Modifier.isAbstract(type.getModifiers())) {
        errors.add(BuildProblem.MIDDLEWARE_ABSTRACT.text(simple, where, type.getName()));
        return null;
      }
      Constructor<?> constructor;
      try {
        constructor = type.getDeclaredConstructor();
      } catch (NoSuchMethodException e) {
        errors.add(BuildProblem.MIDDLEWARE_NO_CONSTRUCTOR.text(simple, where, type.getName()));
        return null;
      }
      try {
        constructor.setAccessible(true);
        return (FusionMiddleware) constructor.newInstance();
      } catch (InvocationTargetException e) {
        throw new IllegalStateException(
            BuildProblem.MIDDLEWARE_CONSTRUCTOR_FAILED.text(simple, where), e.getCause());
      } catch (ReflectiveOperationException | RuntimeException e) {
        errors.add(BuildProblem.MIDDLEWARE_NOT_CONSTRUCTED.text(simple, where, type.getName(),
            e.getClass().getSimpleName()));
        return null;
      }
    }
  }
}
