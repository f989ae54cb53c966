package dev.mcpfusion.wire;

import dev.mcpfusion.json.Json;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The text blocks of a result, written once: their tags, their layout and their escaping. A step
 * that rewrites a block (redaction, the byte cap) writes it here again, so the agent reads the same
 * shape whichever step wrote it last.
 */
public final class Blocks {
  private Blocks() {}

  /** The one block of a {@code void} handler's result. */
  public static final String OK = "OK";

  /** The opening of a {@code <domain_rules>} block. */
  public static final String RULES_OPEN = "<domain_rules>";
  /** The opening of an {@code <action_suggestions>} block. */
  public static final String SUGGESTIONS_OPEN = "<action_suggestions>";
  /** The opening of every {@code <ui_passthrough …>} block. */
  public static final String UI_OPEN = "<ui_passthrough ";
  /** The opening of the truncation summary block. */
  public static final String SUMMARY_OPEN = "<ui_passthrough type=\"summary\">";
  /** The opening of a state-sync mark. */
  public static final String INVALIDATION_OPEN = "<cache_invalidation ";

  /** "📊 **Summary**: ⚠️ Dataset truncated. " (escaped so the source encoding cannot change it). */
  private static final String SUMMARY_PREFIX =
      "\uD83D\uDCCA **Summary**: \u26A0\uFE0F Dataset truncated. ";

  /** The advice that ends a truncation summary. */
  private static final String NARROW = "Use filters to narrow results.";

  /**
   * The text of a truncation summary: the fixed opening, {@code counts} (e.g. {@code "50 shown, 950
   * hidden"}), then {@code advice}, or the usual advice when {@code advice} is {@code null}.
   */
  public static String summary(String counts, String advice) {
    return SUMMARY_PREFIX + counts + ". " + (advice == null ? NARROW : advice);
  }

  /** The {@code <ui_passthrough type="summary">} block of a summary text. */
  public static String summaryBlock(String summaryText) {
    return ui("summary", null, summaryText);
  }

  /**
   * A {@code <ui_passthrough>} block: {@code type} and {@code title} (when not {@code null}) as
   * escaped attributes, the content as escaped text on its own lines.
   */
  public static String ui(String type, String title, String content) {
    StringBuilder b = new StringBuilder(content.length() + 64)
        .append(UI_OPEN).append("type=\"").append(Markup.attribute(type)).append('"');
    if (title != null) {
      b.append(" title=\"").append(Markup.attribute(title)).append('"');
    }
    return b.append(">\n").append(Markup.text(content)).append("\n</ui_passthrough>").toString();
  }

  /** A {@code <domain_rules>} block: one escaped {@code - line} per rule. */
  public static String rules(Collection<String> rules) {
    StringBuilder b = new StringBuilder(RULES_OPEN).append('\n');
    for (String rule : rules) {
      b.append("- ").append(Markup.text(rule)).append('\n');
    }
    return b.append("</domain_rules>").toString();
  }

  /**
   * An {@code <action_suggestions>} block from {@code mcpfusion/suggestions} entries
   * ({@code action}, {@code reason}, optional {@code arguments}), each action rendered as the agent
   * calls it.
   */
  public static String suggestions(List<Map<String, Object>> entries, References refs) {
    StringBuilder b = new StringBuilder(SUGGESTIONS_OPEN).append('\n');
    for (Map<String, Object> s : entries) {
      b.append("- ").append(Markup.text(refs.render((String) s.get("action"))));
      Object arguments = s.get("arguments");
      if (arguments instanceof Map<?, ?> map && !map.isEmpty()) {
        b.append(' ').append(Markup.text(Json.write(arguments)));
      }
      b.append(": ").append(Markup.text((String) s.get("reason"))).append('\n');
    }
    return b.append("</action_suggestions>").toString();
  }

  /** The state-sync mark: {@code <cache_invalidation cause="…" domains="a,b" />}. */
  public static String invalidation(String cause, List<String> domains) {
    return INVALIDATION_OPEN + "cause=\"" + Markup.attribute(cause) + "\" domains=\""
        + Markup.attribute(String.join(",", domains)) + "\" />";
  }
}
