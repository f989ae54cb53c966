package dev.mcpfusion.surface;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.AllowedIn;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.annotation.States;
import dev.mcpfusion.annotation.Tags;
import dev.mcpfusion.annotation.Transition;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A router's workflow as its annotations declare it: the states, the initial one, the states each
 * action is allowed in and the state its success moves to. Read once, reflectively, from the
 * router class ({@code @States} on it, {@code @AllowedIn} and {@code @Transition} on its verb
 * methods) when the server is built; the processor has checked that every state named exists.
 * Immutable.
 */
public final class Workflow {
  private final String router;
  /** The actions, in declaration order. */
  private final List<String> actions;
  private final List<String> states;
  private final String initial;
  /** Action → the states it is allowed in; an action absent here is allowed in every state. */
  private final Map<String, List<String>> allowedIn;
  /** Action → the state its success moves to. */
  private final Map<String, String> transitions;

  private Workflow(String router, List<String> actions, List<String> states, String initial,
      Map<String, List<String>> allowedIn, Map<String, String> transitions) {
    this.router = router;
    this.actions = List.copyOf(actions);
    this.states = List.copyOf(states);
    this.initial = initial;
    this.allowedIn = Map.copyOf(allowedIn);
    this.transitions = Map.copyOf(transitions);
  }

  /**
   * The workflow the class {@code type} of router {@code router} declares, or {@code null} when it
   * has no {@code @States}.
   *
   * @param methods action name → the name of its method, in declaration order
   */
  public static Workflow of(String router, Class<?> type, Map<String, String> methods) {
    States declared = type.getAnnotation(States.class);
    if (declared == null) {
      return null;
    }
    Map<String, List<String>> allowed = new LinkedHashMap<>();
    Map<String, String> transitions = new LinkedHashMap<>();
    for (Map.Entry<String, String> action : methods.entrySet()) {
      Method method = method(type, action.getValue());
      if (method == null) {
        continue;
      }
      AllowedIn in = method.getAnnotation(AllowedIn.class);
      if (in != null) {
        allowed.put(action.getKey(), List.of(in.value()));
      }
      Transition to = method.getAnnotation(Transition.class);
      if (to != null) {
        transitions.put(action.getKey(), to.to());
      }
    }
    return new Workflow(router, new ArrayList<>(methods.keySet()), List.of(declared.value()),
        declared.initial(), allowed, transitions);
  }

  /**
   * The tags of the action whose method is {@code methodName} in the router class {@code type}:
   * the router's ({@code @Router(tags)}) then the method's ({@code @Tags}), each once, in that order.
   */
  public static List<String> tags(Class<?> type, String methodName) {
    Set<String> tags = new LinkedHashSet<>();
    Router declared = type.getAnnotation(Router.class);
    if (declared != null) {
      tags.addAll(List.of(declared.tags()));
    }
    Method method = method(type, methodName);
    Tags own = method == null ? null : method.getAnnotation(Tags.class);
    if (own != null) {
      tags.addAll(List.of(own.value()));
    }
    return List.copyOf(tags);
  }

  /**
   * The verb method called {@code name} of {@code type} (the processor allows one verb method per
   * action name), else any method of that name (a hand-written descriptor's).
   */
  private static Method method(Class<?> type, String name) {
    Method any = null;
    for (Method m : type.getDeclaredMethods()) {
      if (m.getName().equals(name)) {
        if (m.isAnnotationPresent(Query.class) || m.isAnnotationPresent(Mutation.class)
            || m.isAnnotationPresent(Action.class)) {
          return m;
        }
        any = any == null ? m : any;
      }
    }
    return any;
  }

  /** The router's name, which keys its state in a session. */
  public String router() {
    return router;
  }

  /** The states, as declared. */
  public List<String> states() {
    return states;
  }

  /** The state a session starts in. */
  public String initial() {
    return initial;
  }

  /** The states {@code action} is allowed in; empty when it is allowed in every state. */
  public List<String> allowedIn(String action) {
    return allowedIn.getOrDefault(action, List.of());
  }

  /** The state the success of {@code action} moves to, or {@code null} when it moves nothing. */
  public String transition(String action) {
    return transitions.get(action);
  }

  /** Whether {@code action} may be listed and called in {@code state}. */
  public boolean allows(String action, String state) {
    List<String> in = allowedIn.get(action);
    return in == null || in.contains(state);
  }

  /**
   * The actions that lead to a state where {@code action} is allowed (their transition's target),
   * and that are themselves allowed in {@code state}, in declaration order: what to call first.
   * When none is allowed in {@code state}, every action that leads there.
   */
  public List<String> leadingTo(String action, String state) {
    List<String> now = new ArrayList<>();
    List<String> any = new ArrayList<>();
    for (String candidate : actions) {
      String target = transitions.get(candidate);
      if (target != null && !candidate.equals(action) && allows(action, target)) {
        any.add(candidate);
        if (allows(candidate, state)) {
          now.add(candidate);
        }
      }
    }
    return now.isEmpty() ? any : now;
  }
}
