package dev.mcpfusion.cards;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.lock.ActionContract;
import dev.mcpfusion.lock.Contract;
import dev.mcpfusion.lock.PromptContract;
import dev.mcpfusion.lock.ResourceContract;
import dev.mcpfusion.lock.ToolContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What of a lockfile contract a card may show: the features a caller without any scope may see.
 * A tool is shown when one of its actions needs no scope; a GROUPED tool with scoped actions is
 * shown with the router's description only, so no scoped action's name is written.
 */
final class ContractCards {
  static final String PROMPT = "prompt:";
  static final String RESOURCE = "resource:";

  /** One shown action: the tool it is reached through, and itself. */
  record Shown(ToolContract tool, ActionContract action) {}

  private final Contract contract;
  private final Set<String> guarded;

  ContractCards(Contract contract, Set<String> guarded) {
    this.contract = contract;
    this.guarded = Set.copyOf(guarded);
  }

  boolean grouped() {
    return contract.profile().exposition() == Exposition.GROUPED;
  }

  /** The actions that need no scope, by tool name then action name. */
  List<Shown> actions() {
    List<Shown> shown = new ArrayList<>();
    for (ToolContract tool : contract.tools().values()) {
      for (ActionContract action : tool.actions().values()) {
        if (action.scopes().isEmpty()) {
          shown.add(new Shown(tool, action));
        }
      }
    }
    return shown;
  }

  /** The tools with at least one action that needs no scope, in name order. */
  List<ToolContract> tools() {
    List<ToolContract> tools = new ArrayList<>();
    for (Shown s : actions()) {
      if (!tools.contains(s.tool())) {
        tools.add(s.tool());
      }
    }
    return tools;
  }

  /** The prompts that need no scope, in name order. */
  List<PromptContract> prompts() {
    return contract.prompts().values().stream().filter(p -> !guarded.contains(PROMPT + p.name()))
        .toList();
  }

  /** The resources and templates that need no scope, in URI order. */
  List<ResourceContract> resources() {
    return contract.resources().values().stream()
        .filter(r -> !guarded.contains(RESOURCE + r.uri())).toList();
  }
}
