package dev.mcpfusion.core;

import java.util.Objects;

/**
 * A block passed through to the agent's user interface, rendered as
 * {@code <ui_passthrough type="...">content</ui_passthrough>} after the data block.
 *
 * @param type the block type, such as {@code summary}
 * @param content the block text
 */
public record UiBlock(String type, String content) {
  public UiBlock {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(content, "content");
  }

  /** A {@code summary} block. */
  public static UiBlock summary(String content) {
    return new UiBlock("summary", content);
  }
}
