package dev.mcpfusion.surface;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The workflow state of each router for one session: the initial state until a transition moves
 * it. Thread-safe; one per session.
 */
public final class SessionStates {
  private final Map<String, String> current = new ConcurrentHashMap<>();

  /** The session's state of {@code workflow}. */
  public String of(Workflow workflow) {
    return current.getOrDefault(workflow.router(), workflow.initial());
  }

  /** Moves {@code workflow} to {@code state}; true when that changed the session's state. */
  public boolean move(Workflow workflow, String state) {
    String before = current.put(workflow.router(), state);
    return !state.equals(before == null ? workflow.initial() : before);
  }
}
