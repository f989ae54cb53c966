package dev.mcpfusion.lock;

import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.surface.Workflow;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What narrows who sees a router's actions: its workflow ({@code @States}, {@code @AllowedIn},
 * {@code @Transition}) and its actions' tags ({@code @Router(tags)}, {@code @Tags}). Recorded only
 * for a router that has either.
 *
 * @param states the declared states in declaration order; empty when the router has no workflow
 * @param initial the initial state, {@code ""} without a workflow
 * @param allowedIn action → the states it is allowed in (an action allowed in every state is absent)
 * @param transitions action → the state its success moves to
 * @param tags action → its tags (an action without tags is absent)
 */
public record SurfaceContract(List<String> states, String initial,
    Map<String, List<String>> allowedIn, Map<String, String> transitions,
    Map<String, List<String>> tags) {

  public SurfaceContract {
    states = List.copyOf(states);
    allowedIn = Collections.unmodifiableMap(new TreeMap<>(allowedIn));
    transitions = Collections.unmodifiableMap(new TreeMap<>(transitions));
    tags = Collections.unmodifiableMap(new TreeMap<>(tags));
  }

  /** The surface of {@code router}, or {@code null} when it has neither workflow nor tags. */
  static SurfaceContract of(RouterDescriptor router) {
    Map<String, String> methods = new java.util.LinkedHashMap<>();
    router.actions().forEach(a -> methods.put(a.name(), a.methodName()));
    Workflow workflow = Workflow.of(router.name(), router.routerType(), methods);
    Map<String, List<String>> allowed = new TreeMap<>();
    Map<String, String> transitions = new TreeMap<>();
    Map<String, List<String>> tags = new TreeMap<>();
    for (ActionDescriptor action : router.actions()) {
      if (workflow != null && !workflow.allowedIn(action.name()).isEmpty()) {
        allowed.put(action.name(), workflow.allowedIn(action.name()));
      }
      if (workflow != null && workflow.transition(action.name()) != null) {
        transitions.put(action.name(), workflow.transition(action.name()));
      }
      List<String> own = Workflow.tags(router.routerType(), action.methodName());
      if (!own.isEmpty()) {
        tags.put(action.name(), own);
      }
    }
    if (workflow == null && tags.isEmpty()) {
      return null;
    }
    return new SurfaceContract(workflow == null ? List.of() : workflow.states(),
        workflow == null ? "" : workflow.initial(), allowed, transitions, tags);
  }

  /** Whether the router declares workflow states. */
  public boolean hasWorkflow() {
    return !states.isEmpty();
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = new TreeMap<>();
    if (hasWorkflow()) {
      tree.put("states", states);
      tree.put("initial", initial);
      if (!allowedIn.isEmpty()) {
        tree.put("allowedIn", allowedIn);
      }
      if (!transitions.isEmpty()) {
        tree.put("transitions", transitions);
      }
    }
    if (!tags.isEmpty()) {
      tree.put("tags", tags);
    }
    return tree;
  }

  static SurfaceContract fromTree(TreeReader r) {
    Map<String, List<String>> allowed = new TreeMap<>();
    if (r.has("allowedIn")) {
      TreeReader in = r.object("allowedIn");
      in.keys().forEach(k -> allowed.put(k, in.strings(k)));
    }
    Map<String, List<String>> tags = new TreeMap<>();
    if (r.has("tags")) {
      TreeReader tagged = r.object("tags");
      tagged.keys().forEach(k -> tags.put(k, tagged.strings(k)));
    }
    return new SurfaceContract(r.has("states") ? r.strings("states") : List.of(),
        r.has("initial") ? r.string("initial") : "", allowed,
        r.has("transitions") ? r.stringMap("transitions") : Map.of(), tags);
  }
}
