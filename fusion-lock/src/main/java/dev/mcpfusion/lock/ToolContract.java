package dev.mcpfusion.lock;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One MCP tool as exposed: in FLAT one action, named {@code router<separator>action}; in GROUPED
 * every action of a router, named after the router.
 *
 * @param name the exposed tool name
 * @param router the router it comes from
 * @param description the router description, which GROUPED exposes as the tool summary; {@code null}
 *     in FLAT, where the tool description is the action's own
 * @param actions the actions by name
 */
public record ToolContract(String name, String router, String description, Map<String, ActionContract> actions) {

  public ToolContract {
    actions = Collections.unmodifiableMap(new TreeMap<>(actions));
  }

  /** {@code sha256:} of this tool's canonical JSON (everything but the digest itself). */
  public String digest() {
    return Canonical.digest(content());
  }

  private Map<String, Object> content() {
    Map<String, Object> tree = new TreeMap<>();
    Map<String, Object> acts = new TreeMap<>();
    actions.forEach((k, v) -> acts.put(k, v.toTree()));
    tree.put("actions", acts);
    if (description != null) {
      tree.put("description", description);
    }
    tree.put("router", router);
    return tree;
  }

  Map<String, Object> toTree() {
    Map<String, Object> tree = content();
    tree.put("digest", digest());
    return tree;
  }

  static ToolContract fromTree(String name, TreeReader r) {
    Map<String, ActionContract> actions = new TreeMap<>();
    r.objects("actions").forEach((k, v) -> actions.put(k, ActionContract.fromTree(k, v)));
    ToolContract tool = new ToolContract(name, r.string("router"), r.optionalString("description"), actions);
    String recorded = r.string("digest");
    if (!recorded.equals(tool.digest())) {
      throw new IllegalArgumentException("mcpfusion.lock: the digest of tool \"" + name
          + "\" does not match its content (edited by hand or merged?); run the lock goal again");
    }
    return tool;
  }
}
