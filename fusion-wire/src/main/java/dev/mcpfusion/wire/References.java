package dev.mcpfusion.wire;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a logical action reference ({@code billing.void_invoice}) as the agent can call it:
 * FLAT {@code billing_void_invoice}, GROUPED {@code billing (action: void_invoice)}. A reference
 * that names no real action is returned as written.
 */
@FunctionalInterface
public interface References {
  /**
   * A logical reference inside prose: {@code router.action} in the name syntax, not part of a
   * longer dotted, {@code @} or {@code /} name ({@code docs.example.com}, {@code a@b.c},
   * {@code x/billing.y}) and not followed by another name character or a dotted part (a sentence's
   * final period is fine). fusion-processor checks recovery literals with the same pattern.
   */
  Pattern IN_TEXT = Pattern.compile(
      "(?<![A-Za-z0-9_.@/-])([a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*)(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_])");

  /** The rendered form of {@code logicalReference}. */
  String render(String logicalReference);

  /**
   * {@code text} with every logical reference in it ({@link #IN_TEXT}) that names a real action
   * rendered as the agent calls it, and nothing else changed: an agent copies the name it reads,
   * so a recovery line must name the action as its tool list does.
   */
  default String renderIn(String text) {
    if (text == null || text.indexOf('.') < 0) {
      return text;
    }
    Matcher m = IN_TEXT.matcher(text);
    StringBuilder out = null;
    int copied = 0;
    while (m.find()) {
      String reference = m.group(1);
      String rendered = render(reference);
      if (rendered.equals(reference)) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + 16);
      }
      out.append(text, copied, m.start(1)).append(rendered);
      copied = m.end(1);
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  /** Renders every reference as written (for tests and contexts without exposition). */
  static References asWritten() {
    return reference -> reference;
  }
}
