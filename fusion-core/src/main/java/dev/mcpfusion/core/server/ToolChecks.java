package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.internal.NearNames;
import dev.mcpfusion.annotation.Context;
import dev.mcpfusion.core.FusionMiddleware;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.redact.PathPattern;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ContextParameter;
import dev.mcpfusion.core.spi.Reference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks {@link ToolRegistry#build} runs on what it binds: references between routers, each
 * action's redaction against its view, tool names, and the {@code @Context} types each action
 * needs. Each problem is added to the build's list as one {@link BuildProblem} line.
 */
final class ToolChecks {
  private ToolChecks() {}

  /**
   * {@code @Invalidates} patterns, and the {@code Suggestion}/{@code FusionError} references the
   * processor left to us (a router's and the presenters' of its actions), name registered routers
   * (and, unless a wildcard, their actions): the processor checks those of its own compilation; a
   * router of another module is only known here. A reference listed twice (a presenter nested in
   * a router, or shared by several actions) is reported once.
   */
  static void checkInvalidates(Map<String, BoundRouter> routers, List<String> errors) {
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
        String where = "@Invalidates on " + RouterBinding.typeName(router) + "." + action.methodName();
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
  static Redactor redactor(ActionDescriptor action, Presentation presentation,
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

  /** The candidate within a small edit distance of {@code name} ({@link NearNames}), or {@code null}. */
  private static String nearest(String name, Collection<String> candidates) {
    return NearNames.nearest(name, candidates, NearNames.tolerance(name));
  }

  static boolean checkToolName(String toolName, String where, Map<String, String> owners,
      List<String> errors) {
    if (!ToolRegistry.TOOL_NAME.matcher(toolName).matches()) {
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

  /** Reports each {@code @Context} parameter whose type neither the server nor the member's middleware provides. */
  static void checkContext(List<ContextParameter> parameters, String where,
      List<FusionMiddleware> chain, Set<Class<?>> provided, List<String> errors) {
    Set<Class<?>> available = new HashSet<>(provided);
    for (FusionMiddleware m : chain) {
      Set<Class<?>> types = m.provides();
      if (types != null) {
        available.addAll(types);
      }
    }
    for (ContextParameter parameter : parameters) {
      if (!available.contains(parameter.type())) {
        errors.add(BuildProblem.CONTEXT_NOT_PROVIDED.text(where, parameter.name(),
            parameter.type().getSimpleName()));
      }
    }
  }
}
