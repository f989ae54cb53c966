package dev.mcpfusion.lock;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The drift rules of workflow states and tags ({@link SurfaceContract}), router by router: what an
 * agent could call in a state, or a session filtering by a tag could see, and now cannot is
 * BREAKING; a workflow that lets more through is RISKY (its order is weaker); more tags or states
 * are SAFE.
 */
final class SurfaceDrift {
  private static final SurfaceContract NONE =
      new SurfaceContract(List.of(), "", Map.of(), Map.of(), Map.of());

  private SurfaceDrift() {}

  static void compare(Differ differ, Map<String, SurfaceContract> before,
      Map<String, SurfaceContract> after) {
    TreeSet<String> routers = new TreeSet<>(before.keySet());
    routers.addAll(after.keySet());
    for (String router : routers) {
      SurfaceContract b = before.getOrDefault(router, NONE);
      SurfaceContract a = after.getOrDefault(router, NONE);
      workflow(differ, "workflow " + router, b, a);
      TreeSet<String> actions = new TreeSet<>(b.tags().keySet());
      actions.addAll(a.tags().keySet());
      for (String action : actions) {
        List<String> bt = b.tags().getOrDefault(action, List.of());
        List<String> at = a.tags().getOrDefault(action, List.of());
        for (String tag : bt) {
          if (!at.contains(tag)) {
            differ.add(Severity.BREAKING, "tags " + router + "." + action, "tag removed (a session"
                + " filtering by it no longer sees the action): " + tag);
          }
        }
        for (String tag : at) {
          if (!bt.contains(tag)) {
            differ.add(Severity.SAFE, "tags " + router + "." + action, "tag added: " + tag);
          }
        }
      }
    }
  }

  private static void workflow(Differ differ, String where, SurfaceContract b, SurfaceContract a) {
    if (!b.hasWorkflow() && !a.hasWorkflow()) {
      return;
    }
    if (!b.hasWorkflow()) {
      differ.add(Severity.BREAKING, where, "workflow states declared (actions are now gated by"
          + " state): " + a.states());
      return;
    }
    if (!a.hasWorkflow()) {
      differ.add(Severity.RISKY, where, "workflow states removed (no action is gated any more)");
      return;
    }
    for (String state : b.states()) {
      if (!a.states().contains(state)) {
        differ.add(Severity.BREAKING, where, "state removed: " + state);
      }
    }
    for (String state : a.states()) {
      if (!b.states().contains(state)) {
        differ.add(Severity.SAFE, where, "state added: " + state);
      }
    }
    if (!b.initial().equals(a.initial())) {
      differ.add(Severity.BREAKING, where, "initial state changed: " + b.initial() + " \u2192 "
          + a.initial());
    }
    TreeSet<String> actions = new TreeSet<>(b.allowedIn().keySet());
    actions.addAll(a.allowedIn().keySet());
    for (String action : actions) {
      // An action absent from allowedIn is allowed in every state.
      List<String> bs = b.allowedIn().getOrDefault(action, b.states());
      List<String> as = a.allowedIn().getOrDefault(action, a.states());
      for (String state : bs) {
        if (!as.contains(state) && a.states().contains(state)) {
          differ.add(Severity.BREAKING, where + "." + action, "no longer allowed in " + state);
        }
      }
      for (String state : as) {
        if (!bs.contains(state) && b.states().contains(state)) {
          differ.add(Severity.RISKY, where + "." + action, "now allowed in " + state);
        }
      }
    }
    actions = new TreeSet<>(b.transitions().keySet());
    actions.addAll(a.transitions().keySet());
    for (String action : actions) {
      String bt = b.transitions().get(action);
      String at = a.transitions().get(action);
      if (!Objects.equals(bt, at)) {
        differ.add(Severity.RISKY, where + "." + action, "transition changed: "
            + (bt == null ? "(none)" : bt) + " \u2192 " + (at == null ? "(none)" : at));
      }
    }
  }
}
