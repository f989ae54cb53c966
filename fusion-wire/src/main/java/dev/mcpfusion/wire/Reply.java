package dev.mcpfusion.wire;

import dev.mcpfusion.json.Json;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one {@code tools/call} answers, before it becomes an MCP result: the text blocks in wire
 * order, the {@code structuredContent}, the {@code mcpfusion/*} {@code _meta} entries and whether it
 * is an error.
 *
 * <p>Immutable at the top level: the block list and both maps cannot be changed through a reply.
 * The public constructor copies what it is given; the presenter, which builds fresh collections
 * for every call and keeps no reference to them, hands them over without a copy (the per-call cost
 * of a copy is measured in {@code BENCHMARKS.md}, item 1).
 */
public final class Reply {
  private final List<String> blocks;
  private final Map<String, Object> structuredContent;
  private final Map<String, Object> meta;
  private final boolean isError;
  /** Items of a collection result in the data block and {@code structuredContent.items}; -1 otherwise. */
  private final int items;
  /** Whether the data block of a collection result is a TOON table rather than a JSON array. */
  private final boolean toon;
  /**
   * The length of {@code structuredContent} as compact JSON text, when the presenter knows it
   * without writing it (its data block is that text, or holds it); -1 when not known.
   */
  private final int structuredChars;
  /** The same for {@code _meta}; -1 when not known. */
  private final int metaChars;
  /** The characters of all {@link #blocks} together, when the presenter counted them; -1 when not. */
  private final int textChars;
  /** See {@link #onlyStaticRules}. */
  private final boolean onlyStaticRules;
  /**
   * Content the handler attached (image, audio, embedded resource, resource link, text), as plain
   * JSON trees written after the text blocks; empty for none and always empty on an error.
   */
  private final List<Map<String, Object>> attachments;
  /** The code of an error reply as its writer set it; {@code null} on success or when unknown. */
  private final String errorCode;

  /**
   * A reply from collections the caller may keep using: all three are copied.
   *
   * @param blocks the text content items, in order
   * @param structuredContent the plain JSON tree sent as {@code structuredContent}; {@code null} on errors
   * @param meta the {@code mcpfusion/*} entries, in insertion order; {@code null} for none
   * @param isError whether the result is an error ({@code isError: true})
   */
  public Reply(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta, boolean isError) {
    this(List.copyOf(blocks),
        structuredContent == null ? null : new LinkedHashMap<>(structuredContent),
        meta == null || meta.isEmpty() ? Map.of() : new LinkedHashMap<>(meta),
        isError, -1, false, -1, -1, -1, false, List.of(), null, Ownership.TAKEN);
  }

  private Reply(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta, boolean isError, int items, boolean toon, int structuredChars,
      int metaChars, int textChars, boolean onlyStaticRules, List<Map<String, Object>> attachments,
      String errorCode, Ownership ownership) {
    this.blocks = blocks;
    this.structuredContent = structuredContent == null
        ? null : Collections.unmodifiableMap(structuredContent);
    this.meta = meta.isEmpty() ? Map.of() : Collections.unmodifiableMap(meta);
    this.isError = isError;
    this.items = items;
    this.toon = toon;
    this.structuredChars = structuredContent == null ? -1 : structuredChars;
    this.metaChars = metaChars;
    this.textChars = textChars;
    this.onlyStaticRules = onlyStaticRules && metaChars >= 0;
    this.attachments = isError ? List.of() : attachments;
    this.errorCode = isError ? errorCode : null;
  }

  /**
   * An error reply whose code is {@code code} ({@code SERVER_BUSY}, {@code NOT_FOUND}, …): the
   * code rides with the reply, so a step that reads the outcome (the trace) never has to parse the
   * text or the {@code _meta} the agent reads, whatever a later step did to them. The blocks and
   * {@code _meta} are copied.
   */
  public static Reply error(List<String> blocks, Map<String, Object> meta, String code) {
    return new Reply(List.copyOf(blocks), null,
        meta == null || meta.isEmpty() ? Map.of() : new LinkedHashMap<>(meta),
        true, -1, false, -1, -1, -1, false, List.of(), Objects.requireNonNull(code, "code"),
        Ownership.TAKEN);
  }

  /**
   * A reply that takes ownership of fresh collections nobody else holds: no copy is made. Only for
   * the presenter, which builds a new list and new maps for every call.
   */
  public static Reply owned(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta) {
    return owned(blocks, structuredContent, meta, -1);
  }

  /** As {@link #owned(List, Map, Map)}, for a collection result of {@code items} items. */
  public static Reply owned(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta, int items) {
    return owned(blocks, structuredContent, meta, items, false);
  }

  /** As {@link #owned(List, Map, Map, int)}, whose data block is a TOON table when {@code toon}. */
  public static Reply owned(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta, int items, boolean toon) {
    return owned(blocks, structuredContent, meta, items, toon, -1, -1, -1, false);
  }

  /**
   * As {@link #owned(List, Map, Map, int, boolean)}, whose {@code structuredContent} and
   * {@code _meta} written as compact JSON are {@code structuredChars} and {@code metaChars}
   * characters long, and whose blocks hold {@code textChars} characters together (each -1 when
   * not known); {@code onlyStaticRules} as {@link #onlyStaticRules} tells.
   */
  public static Reply owned(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta, int items, boolean toon, int structuredChars, int metaChars,
      int textChars, boolean onlyStaticRules) {
    return new Reply(Collections.unmodifiableList(blocks), structuredContent,
        meta == null ? Map.of() : meta, false, items, toon, structuredChars, metaChars, textChars,
        onlyStaticRules, List.of(), null, Ownership.TAKEN);
  }

  /**
   * A reply like this one with other blocks, {@code structuredContent} and {@code _meta} (all
   * copied), keeping what the wire does not show: whether it is an error (and its code) and, for a
   * collection, how many items it holds. A later step that rewrites a reply (redaction, the byte cap) uses this so
   * the steps after it still know the reply's shape.
   *
   * @param items the items the rewritten collection holds, or -1 for a reply that is not one
   */
  public Reply rewritten(List<String> blocks, Map<String, Object> structuredContent,
      Map<String, Object> meta, int items) {
    return new Reply(List.copyOf(blocks),
        structuredContent == null ? null : new LinkedHashMap<>(structuredContent),
        meta == null || meta.isEmpty() ? Map.of() : new LinkedHashMap<>(meta),
        isError, items, toon, -1, -1, -1, false, attachments, errorCode, Ownership.TAKEN);
  }

  /**
   * This reply with {@code attachments} (plain JSON content trees, already redacted) written after
   * its text blocks; everything else, the counts the presenter knew included, is kept. An error
   * reply carries none: it is returned unchanged.
   */
  public Reply withAttachments(List<Map<String, Object>> attachments) {
    if (isError || attachments.isEmpty() && this.attachments.isEmpty()) {
      return this;
    }
    return new Reply(blocks, structuredContent, meta, false, items, toon, structuredChars,
        metaChars, textChars, onlyStaticRules, List.copyOf(attachments), null, Ownership.TAKEN);
  }

  /**
   * The content the handler attached, as plain JSON trees in order, written after the text blocks
   * of a successful reply ({@code OK}, the block of a {@code void} handler, gives way to them);
   * empty for none, and on every error.
   */
  public List<Map<String, Object>> attachments() {
    return attachments;
  }

  /**
   * The data block of a collection reply holding {@code items} (plain JSON trees), in this reply's
   * format: a compact JSON array, or a TOON table for a {@code @Presenter(format = TOON)} view. A
   * later step that changes the items (redaction, the byte cap) rewrites the block with it.
   */
  public String itemsBlock(List<?> items) {
    return toon ? Toon.table(items) : Json.write(items);
  }

  /** Whether the data block is a TOON table ({@code @Presenter(format = TOON)} collection). */
  public boolean toonData() {
    return toon;
  }

  /** Marks the constructor that adopts its collections (they are fresh, or copies made for it). */
  private enum Ownership { TAKEN }

  /** The text content items, in order (never empty for a reply the pipeline sends). */
  public List<String> blocks() {
    return blocks;
  }

  /** The plain JSON tree sent as {@code structuredContent}; {@code null} on errors. */
  public Map<String, Object> structuredContent() {
    return structuredContent;
  }

  /** The {@code mcpfusion/*} {@code _meta} entries, in insertion order; empty for none. */
  public Map<String, Object> meta() {
    return meta;
  }

  /**
   * The length in characters of {@code structuredContent} written as compact JSON
   * ({@code Json.write}), when the presenter knew it without writing it; -1 when not known (then
   * measure the tree). A later step that rewrites the tree starts from -1 again.
   */
  public int structuredChars() {
    return structuredChars;
  }

  /**
   * As {@link #structuredChars}, for {@code _meta}; -1 when not known. The presenter knows it only
   * when {@code _meta} holds nothing but the view's static rules (see {@link #staticMeta}).
   */
  public int metaChars() {
    return metaChars;
  }

  /**
   * The characters of all {@link #blocks} together, when the presenter counted them as it wrote
   * them; -1 when not known (then count them). A later step that rewrites the reply starts from -1
   * again.
   */
  public int textChars() {
    return textChars;
  }

  /**
   * Whether {@code _meta} is as the presenter wrote it and holds nothing but the view's static
   * rules (or nothing, when the view has none): no dynamic rule, suggestion or page record.
   */
  public boolean staticMeta() {
    return metaChars >= 0;
  }

  /**
   * Whether the presenter wrote the data block and after it nothing but the view's static rules
   * block (none when the view has no rules), with those rules alone in {@code _meta}
   * ({@link #staticMeta}): no UI block, dynamic rule, suggestion or truncation summary. A later step
   * that rewrites the reply starts from {@code false} again.
   */
  public boolean onlyStaticRules() {
    return onlyStaticRules;
  }

  /** Whether the result is an error ({@code isError: true}). */
  public boolean isError() {
    return isError;
  }

  /**
   * The code of an error reply ({@link Codes}, or a connector's own such as {@code NOT_FOUND}), as
   * the step that wrote it set it; {@code null} for a success, and for an error reply built
   * without one (through the public constructor).
   */
  public String errorCode() {
    return errorCode;
  }

  /**
   * For a collection result, how many items its data block (the first block, a JSON array or a TOON
   * table, see {@link #itemsBlock}) and
   * {@code structuredContent.items} hold; -1 for any other reply.
   */
  public int items() {
    return items;
  }

  /** All blocks joined with blank lines, for logs and tests. */
  public String text() {
    return String.join("\n\n", blocks);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Reply that
        && isError == that.isError
        && blocks.equals(that.blocks)
        && Objects.equals(structuredContent, that.structuredContent)
        && meta.equals(that.meta)
        && attachments.equals(that.attachments);
  }

  @Override
  public int hashCode() {
    return Objects.hash(blocks, structuredContent, meta, isError, attachments);
  }

  @Override
  public String toString() {
    return "Reply[blocks=" + blocks + ", structuredContent=" + structuredContent + ", meta=" + meta
        + ", isError=" + isError + (attachments.isEmpty() ? "" : ", attachments=" + attachments) + "]";
  }
}
