package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.annotation.Format;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.guard.ActionLimits;
import dev.mcpfusion.core.guard.ConcurrencyGate;
import dev.mcpfusion.core.guard.Gates;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.core.redact.DetailPresenter;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.redact.PathPattern;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.FusionSpi;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Toon;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
    return defaultRedactor == null ? Redaction.none() : Redactions.policy(defaultRedactor);
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

  /**
   * Whether any action has a deadline or an async handler (a transport then lets a reply go out
   * before, or after, the dispatching thread is done with it).
   */
  public boolean hasDeadlines() {
    return hasDeadlines;
  }

  private static boolean anyDeadline(List<ExposedTool> tools) {
    for (ExposedTool tool : tools) {
      for (BoundAction action : tool.actions().values()) {
        if (action.limits().timeoutMs() > 0 || action.mode().async()) {
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

  /**
   * The name of the tool that exposes {@code router}'s {@code action}: FLAT
   * {@code billing_list_invoices} (or {@code list_invoices} for {@code @Router(prefixed = false)}),
   * GROUPED the router's tool {@code billing}; {@code null} when there is no such action.
   */
  public String toolName(String router, String action) {
    for (ExposedTool tool : tools) {
      if (tool.router().name().equals(router) && tool.actions().containsKey(action)) {
        return tool.name();
      }
    }
    return null;
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
      if (RouterBinding.featuresOnly(registration)) {
        continue; // prompts, resources and completions only: FeatureRegistry binds it
      }
      BoundRouter bound = RouterBinding.bind(registration, errors);
      if (bound != null) {
        routers.add(bound);
      }
    }

    Map<String, BoundRouter> byName = new LinkedHashMap<>();
    for (BoundRouter router : routers) {
      BoundRouter earlier = byName.putIfAbsent(router.name(), router);
      if (earlier != null) {
        errors.add(BuildProblem.DUPLICATE_ROUTER.text(router.name(), RouterBinding.typeName(earlier),
            RouterBinding.typeName(router)));
      }
    }

    ToolChecks.checkInvalidates(byName, errors);

    MiddlewareResolver resolver = new MiddlewareResolver(config, errors);
    List<ActionLimits.Invalid> invalidLimits = new ArrayList<>();
    Set<Class<?>> provided = new HashSet<>(config.providers().keySet());
    provided.add(RequestContext.class);
    provided.add(Caller.class);

    Redactor defaultRedactor = null;
    try {
      defaultRedactor = Redactions.compile(config.redaction());
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
        if (FeatureBinding.hasFeatures(descriptor.routerType())) {
          continue; // a router of prompts and resources only exposes no tool
        }
        errors.add(BuildProblem.NO_ACTIONS.text(router.name(), RouterBinding.typeName(router)));
        continue;
      }
      List<FusionMiddleware> routerChain = new ArrayList<>(config.middleware());
      for (Class<?> type : descriptor.middleware()) {
        FusionMiddleware m = resolver.resolve(type, "router '" + router.name() + "' ("
            + RouterBinding.typeName(router) + ")");
        if (m != null) {
          routerChain.add(m);
        }
      }
      List<BoundAction> actions = new ArrayList<>();
      for (int i = 0; i < descriptor.actions().size(); i++) {
        ActionDescriptor action = descriptor.actions().get(i);
        String where = RouterBinding.typeName(router) + "." + action.methodName();
        List<FusionMiddleware> chain = new ArrayList<>(routerChain);
        for (Class<?> type : action.middleware()) {
          FusionMiddleware m = resolver.resolve(type, where);
          if (m != null) {
            chain.add(m);
          }
        }
        ToolChecks.checkContext(action.contextParameters(), where, chain, provided, errors);
        boolean presenterFits = action.presenter() == null
            || action.presenter().spiVersion() == FusionSpi.VERSION;
        if (!presenterFits) {
          errors.add(BuildProblem.PRESENTER_SPI_MISMATCH.text(
              action.presenter().getClass().getName(), where, action.presenter().spiVersion(),
              FusionSpi.VERSION));
        }
        ExecutableTarget executable = action.beanValidation()
            ? RouterBinding.executableTarget(router, action, where, errors)
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
          redactor = ToolChecks.redactor(action, presentation, config, where,
              defaultRedactor != null || config.redaction().isEmpty(), errors);
          if (action.presenter() != null) {
            presenters.add(action.presenter());
          }
        }
        int reported = invalidLimits.size();
        java.lang.reflect.Method method = RouterBinding.actionMethod(descriptor, action);
        ActionLimits limits = ActionLimits.resolve(config.limits(), descriptor.routerType(),
            method, where, invalidLimits);
        for (ActionLimits.Invalid bad : invalidLimits.subList(reported, invalidLimits.size())) {
          errors.add(BuildProblem.INVALID_LIMITS.text(bad.where(), bad.name(), bad.value(), bad.min()));
        }
        InputDocument document = null;
        try {
          document = InputDocument.of(action);
        } catch (IllegalArgumentException e) {
          errors.add(BuildProblem.INPUT_SCHEMA_INVALID.text(where, e.getMessage()));
        }
        actions.add(new BoundAction(router, i, action, chain, executable, presentation, redactor,
            limits, gates.gate(limits, router.name(), action.name()), document,
            RunMode.of(method)));
      }

      if (config.exposition() == Exposition.GROUPED) {
        for (BoundAction action : actions) {
          rendered.put(action.reference(), router.name() + " (action: " + action.name() + ")");
          for (FieldDescriptor field : action.descriptor().fields()) {
            if (Exposer.DISCRIMINATOR.equals(field.name())) {
              errors.add(BuildProblem.DISCRIMINATOR_CLASH.text(RouterBinding.typeName(router),
                  action.descriptor().methodName()));
            }
          }
          if (action.descriptor().inputSchemaJson() != null) {
            errors.add(BuildProblem.INPUT_SCHEMA_GROUPED.text(RouterBinding.typeName(router),
                action.descriptor().methodName()));
          }
        }
        String toolName = router.name();
        if (ToolChecks.checkToolName(toolName, RouterBinding.typeName(router), toolOwners, errors)) {
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
          if (action.descriptor().inputSchemaJson() != null && action.document() == null) {
            continue; // its document did not compile: reported above
          }
          String toolName = descriptor.flatToolName(separator, action.name());
          rendered.put(action.reference(), toolName);
          if (ToolChecks.checkToolName(toolName, RouterBinding.typeName(router) + "." + action.descriptor().methodName(),
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

  /** The generated class name of a {@code @Router} class: {@code pkg.X_Fusion}, {@code pkg.Outer_Inner_Fusion}. */
  public static String generatedName(Class<?> type) {
    return RouterBinding.generatedName(type);
  }
}
