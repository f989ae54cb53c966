package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Caller;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One MCP tool and the actions behind it: a single action in FLAT exposition, every action of a
 * router (selected by the {@code action} discriminator) in GROUPED exposition. Immutable.
 */
public final class ExposedTool {
  private final McpSchema.Tool tool;
  private final BoundRouter router;
  private final boolean grouped;
  private final Map<String, BoundAction> actions;
  private final List<String> renderedActions;
  private final BoundAction single;

  /**
   * @param tool what {@code tools/list} shows
   * @param router the router the actions belong to
   * @param grouped whether the tool has an {@code action} discriminator
   * @param actions the actions by name, in declaration order (exactly one when not grouped)
   * @param renderedActions the actions as the agent calls them, for self-healing errors
   * @throws IllegalArgumentException if {@code actions} is empty, or holds more than one action
   *     for a tool that is not grouped
   */
  public ExposedTool(McpSchema.Tool tool, BoundRouter router, boolean grouped,
      Map<String, BoundAction> actions, List<String> renderedActions) {
    this.tool = Objects.requireNonNull(tool, "tool");
    this.router = Objects.requireNonNull(router, "router");
    this.grouped = grouped;
    this.actions = Collections.unmodifiableMap(new LinkedHashMap<>(actions));
    this.renderedActions = List.copyOf(renderedActions);
    if (this.actions.isEmpty() || (!grouped && this.actions.size() != 1)) {
      throw new IllegalArgumentException("tool " + tool.name() + " has " + this.actions.size()
          + " actions; a FLAT tool has exactly one, a grouped tool at least one");
    }
    this.single = grouped ? null : this.actions.values().iterator().next();
  }

  /**
   * Whether {@code caller} may see the tool: it holds the scopes of at least one of its actions
   * (a grouped tool is listed whole; its other actions refuse the call with {@code FORBIDDEN}).
   */
  public boolean visibleTo(Caller caller) {
    for (BoundAction action : actions.values()) {
      if (caller.missing(action.descriptor().scopes()).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Whether some action of the tool requires a scope. */
  public boolean scoped() {
    for (BoundAction action : actions.values()) {
      if (!action.descriptor().scopes().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** What {@code tools/list} shows. */
  public McpSchema.Tool tool() {
    return tool;
  }

  /** The router the actions belong to. */
  public BoundRouter router() {
    return router;
  }

  /** Whether the tool has an {@code action} discriminator. */
  public boolean grouped() {
    return grouped;
  }

  /** The actions by name, in declaration order (exactly one when not grouped). */
  public Map<String, BoundAction> actions() {
    return actions;
  }

  /** The actions as the agent calls them, for self-healing errors. */
  public List<String> renderedActions() {
    return renderedActions;
  }

  /** The tool name. */
  public String name() {
    return tool.name();
  }

  /**
   * The only action of a FLAT tool.
   *
   * @throws IllegalStateException for a grouped tool
   */
  public BoundAction single() {
    if (single == null) {
      throw new IllegalStateException("tool " + name() + " is grouped; pick an action by name");
    }
    return single;
  }

  @Override
  public String toString() {
    return "ExposedTool[" + name() + (grouped ? ", grouped " : ", ") + actions.keySet() + "]";
  }
}
