package dev.mcpfusion.wire;

import dev.mcpfusion.json.Json;
import java.util.List;
import java.util.Map;

/**
 * The members of a {@code tools/call} result written from a {@link Reply}, once for every writer:
 * the edge writes them into each era's response, and the byte cap measures the same text, so what
 * the cap allowed is exactly what is sent.
 */
public final class ToolResults {
  private ToolResults() {}

  /**
   * The {@code content} array: the reply's text blocks, then (on success) what the handler
   * attached. A {@code void} handler's {@code OK} gives way to its attachments, which say more; a
   * reply with nothing to show says {@code OK} (or, for an error, that the tool failed), because
   * clients drop the {@code _meta} of a result without content.
   */
  public static void appendContent(Reply reply, StringBuilder out) {
    out.append("\"content\":[");
    List<String> blocks = reply.blocks();
    List<Map<String, Object>> attached = reply.attachments();
    boolean attach = !attached.isEmpty();
    if (attach && blocks.size() == 1 && Blocks.OK.equals(blocks.get(0))) {
      blocks = List.of();
    }
    if (blocks.isEmpty() && !attach) {
      text(reply.isError() ? "The tool failed." : Blocks.OK, out);
    }
    int written = 0;
    for (String block : blocks) {
      if (written++ > 0) {
        out.append(',');
      }
      text(block, out);
    }
    for (Map<String, Object> item : attached) {
      if (written++ > 0) {
        out.append(',');
      }
      Json.appendValue(item, out);
    }
    out.append(']');
  }

  /**
   * The result object of the 2025 era, member for member what the SDK's {@code CallToolResult}
   * writes: {@code content}, {@code isError}, {@code structuredContent}, {@code _meta}.
   */
  public static void appendClassicResult(Reply reply, StringBuilder out) {
    out.append('{');
    appendContent(reply, out);
    out.append(",\"isError\":").append(reply.isError());
    appendStructured(reply, out);
    if (!reply.meta().isEmpty()) {
      out.append(",\"_meta\":");
      Json.appendValue(reply.meta(), out);
    }
    out.append('}');
  }

  /** {@code ,"structuredContent":…} when the reply has it. */
  public static void appendStructured(Reply reply, StringBuilder out) {
    if (reply.structuredContent() != null) {
      out.append(",\"structuredContent\":");
      Json.appendValue(reply.structuredContent(), out);
    }
  }

  /**
   * The reply a tool result object describes (the inverse of {@link #appendClassicResult}, for a
   * result an egress filter rewrote): its text items become the blocks and every other content item
   * an attachment, each kind keeping its order; {@code structuredContent}, {@code _meta} and
   * {@code isError} are taken as they are. What the reply knew of its shape (items, counts) is not
   * kept, so a byte cap can only accept it whole or refuse it.
   *
   * @throws IllegalArgumentException if {@code result} is not a tool result object: no
   *     {@code content} list, a content item without a {@code type}, a text item without text, a
   *     {@code structuredContent} or {@code _meta} that is not an object
   */
  @SuppressWarnings("unchecked")
  public static Reply read(Map<String, ?> result) {
    if (!(result.get("content") instanceof List<?> content)) {
      throw new IllegalArgumentException("a tool result needs a \"content\" list");
    }
    List<String> blocks = new java.util.ArrayList<>();
    List<Map<String, Object>> attachments = new java.util.ArrayList<>();
    for (Object item : content) {
      if (!(item instanceof Map<?, ?> map) || !(map.get("type") instanceof String type)) {
        throw new IllegalArgumentException("every content item needs a \"type\"");
      }
      if ("text".equals(type)) {
        if (!(map.get("text") instanceof String text)) {
          throw new IllegalArgumentException("a text content item needs its \"text\"");
        }
        blocks.add(text);
      } else {
        attachments.add((Map<String, Object>) map);
      }
    }
    Object structured = result.get("structuredContent");
    Object meta = result.get("_meta");
    if (structured != null && !(structured instanceof Map<?, ?>)
        || meta != null && !(meta instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("\"structuredContent\" and \"_meta\" are objects");
    }
    boolean isError = Boolean.TRUE.equals(result.get("isError"));
    Reply reply = new Reply(blocks, (Map<String, Object>) structured, (Map<String, Object>) meta,
        isError);
    return reply.withAttachments(attachments);
  }

  private static void text(String text, StringBuilder out) {
    out.append("{\"type\":\"text\",\"text\":");
    Json.appendString(text, out);
    out.append('}');
  }
}
