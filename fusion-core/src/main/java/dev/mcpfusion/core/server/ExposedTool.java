package dev.mcpfusion.core.server;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One MCP tool and the actions behind it: a single action in FLAT exposition, every action of a
 * router (selected by the {@code action} discriminator) in GROUPED exposition.
 *
 * @param tool what {@code tools/list} shows
 * @param router the router the actions belong to
 * @param grouped whether the tool has an {@code action} discriminator
 * @param actions the actions by name, in declaration order (exactly one when not grouped)
 * @param renderedActions the actions as the agent calls them, for self-healing errors
 */
public record ExposedTool(
    McpSchema.Tool tool,
    BoundRouter router,
    boolean grouped,
    Map<String, BoundAction> actions,
    List<String> renderedActions) {

  public ExposedTool {
    actions = Collections.unmodifiableMap(new LinkedHashMap<>(actions));
    renderedActions = List.copyOf(renderedActions);
  }

  /** The tool name. */
  public String name() {
    return tool.name();
  }

  /** The only action of a FLAT tool. */
  public BoundAction single() {
    return actions.values().iterator().next();
  }
}
