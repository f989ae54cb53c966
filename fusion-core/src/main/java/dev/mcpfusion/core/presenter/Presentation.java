package dev.mcpfusion.core.presenter;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.wire.Blocks;
import dev.mcpfusion.wire.Meta;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What every answer of one action shares, rendered once when the server is built instead of on
 * every call: the presenter's static rule lines (deduplicated, in order), their
 * {@code <domain_rules>} block and the list sent as {@code _meta["mcpfusion/rules"]}. Answers whose
 * views add data-dependent rules render a new block from these lines plus theirs.
 *
 * <p>Immutable and thread-safe. Build one with {@link #of(ActionDescriptor)}.
 */
public final class Presentation {
  private final ActionDescriptor action;
  private final List<String> staticRules;
  private final Set<String> staticRuleSet;
  private final String rulesBlock;
  private final int staticMetaChars;

  private Presentation(ActionDescriptor action, List<String> staticRules) {
    this.action = action;
    this.staticRules = staticRules;
    this.staticRuleSet = Set.copyOf(staticRules);
    this.rulesBlock = staticRules.isEmpty() ? null : Blocks.rules(staticRules);
    this.staticMetaChars = Json.write(staticRules.isEmpty()
        ? Map.of() : Map.of(Meta.RULES, staticRules)).length();
  }

  /**
   * Prepares {@code action}: reads its presenter's {@link PresenterBinding#staticRules()} once.
   *
   * @throws NullPointerException if {@code action} is {@code null} or its presenter returns
   *     {@code null} rules or a {@code null} rule line
   */
  public static Presentation of(ActionDescriptor action) {
    Objects.requireNonNull(action, "action");
    PresenterBinding<?, ?> binding = action.presenter();
    if (binding == null) {
      return new Presentation(action, List.of());
    }
    List<String> lines = Objects.requireNonNull(binding.staticRules(),
        () -> binding.getClass().getName() + ".staticRules() returned null");
    return new Presentation(action, List.copyOf(new LinkedHashSet<>(lines)));
  }

  /** The action this presentation belongs to. */
  public ActionDescriptor action() {
    return action;
  }

  /** The static rule lines, deduplicated, in the presenter's order: the list every answer carries. */
  public List<String> staticRules() {
    return staticRules;
  }

  /** Whether {@code rule} is one of the static lines (a dynamic rule repeating it is dropped). */
  boolean isStaticRule(String rule) {
    return rule != null && staticRuleSet.contains(rule);
  }

  /** The rendered {@code <domain_rules>} block of the static lines; {@code null} when there are none. */
  String rulesBlock() {
    return rulesBlock;
  }

  /**
   * The length of an answer's {@code _meta} as compact JSON text when it holds the static rules
   * and nothing else (or is empty, when there are none): known once, so the byte cap need not
   * measure it on every call.
   */
  int staticMetaChars() {
    return staticMetaChars;
  }

}
