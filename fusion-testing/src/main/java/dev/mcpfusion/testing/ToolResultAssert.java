package dev.mcpfusion.testing;

import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.testing.internal.JsonTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link ToolResult}; start with {@link FusionAssertions#assertThat(ToolResult)}.
 * Every failure message shows the reply the client received.
 */
public final class ToolResultAssert extends AbstractAssert<ToolResultAssert, ToolResult> {

  ToolResultAssert(ToolResult actual) {
    super(actual, ToolResultAssert.class);
  }

  // ---- outcome ---------------------------------------------------------------------------------

  /** The call succeeded ({@code isError} not true, no JSON-RPC error). */
  public ToolResultAssert isSuccess() {
    isNotNull();
    if (actual.isError()) {
      failReply("Expecting the call to succeed, but it failed with %s", actual.errorCode());
    }
    return this;
  }

  /** The call failed: {@code isError: true} (warnings included) or a JSON-RPC error. */
  public ToolResultAssert isError() {
    isNotNull();
    if (!actual.isError()) {
      failReply("Expecting the call to fail, but it succeeded");
    }
    return this;
  }

  /** The call failed with an error marked {@code severity="warning"}. */
  public ToolResultAssert isWarning() {
    isError();
    if (!actual.isWarning()) {
      failReply("Expecting a warning, but the severity was %s", quote(actual.severity()));
    }
    return this;
  }

  /** The call failed with this error code. */
  public ToolResultAssert hasCode(String code) {
    isError();
    if (!Objects.equals(code, actual.errorCode())) {
      failReply("Expecting error code %s, but was %s", quote(code), quote(actual.errorCode()));
    }
    return this;
  }

  /** The error's recovery sentence equals {@code recovery}. */
  public ToolResultAssert hasRecovery(String recovery) {
    isError();
    if (!Objects.equals(recovery, actual.recovery())) {
      failReply("Expecting recovery %s, but was %s", quote(recovery), quote(actual.recovery()));
    }
    return this;
  }

  /** The error's recovery sentence contains {@code part}. */
  public ToolResultAssert hasRecoveryContaining(String part) {
    isError();
    if (actual.recovery() == null || !actual.recovery().contains(part)) {
      failReply("Expecting the recovery to contain %s, but it was %s", quote(part), quote(actual.recovery()));
    }
    return this;
  }

  /** The error offers exactly these actions, rendered as the agent reads them, in order. */
  public ToolResultAssert hasActions(String... rendered) {
    isError();
    if (!actual.actions().equals(List.of(rendered))) {
      failReply("Expecting the error actions %s, but were %s", List.of(rendered), actual.actions());
    }
    return this;
  }

  /** The error text (the envelope, or the JSON-RPC message) equals {@code text} exactly. */
  public ToolResultAssert hasErrorText(String text) {
    isError();
    if (!Objects.equals(text, actual.errorText())) {
      failReply("Expecting the error text%n  %s%nbut was%n  %s", text, actual.errorText());
    }
    return this;
  }

  /** The error text contains {@code part}. */
  public ToolResultAssert hasErrorTextContaining(String part) {
    isError();
    if (actual.errorText() == null || !actual.errorText().contains(part)) {
      failReply("Expecting the error text to contain %s", quote(part));
    }
    return this;
  }

  // ---- presenter output ------------------------------------------------------------------------

  /** A suggestion names this logical reference ({@code billing.void_invoice}). */
  public ToolResultAssert suggests(String logicalReference) {
    isNotNull();
    for (Suggestion s : actual.suggestions()) {
      if (s.action().equals(logicalReference)) {
        return this;
      }
    }
    failReply("Expecting a suggestion of %s, but the suggestions were %s",
        quote(logicalReference), actual.suggestions());
    return this;
  }

  /** A suggestion names this logical reference with exactly these arguments. */
  public ToolResultAssert suggests(String logicalReference, Map<String, ?> arguments) {
    isNotNull();
    Object expected = JsonTrees.plain(arguments);
    for (Suggestion s : actual.suggestions()) {
      if (s.action().equals(logicalReference) && JsonTrees.plain(s.arguments()).equals(expected)) {
        return this;
      }
    }
    failReply("Expecting a suggestion of %s with arguments %s, but the suggestions were %s",
        quote(logicalReference), arguments, actual.suggestions());
    return this;
  }

  /** No suggestion names this logical reference. */
  public ToolResultAssert doesNotSuggest(String logicalReference) {
    isNotNull();
    for (Suggestion s : actual.suggestions()) {
      if (s.action().equals(logicalReference)) {
        failReply("Expecting no suggestion of %s, but found %s", quote(logicalReference), s);
      }
    }
    return this;
  }

  /** A rule line contains {@code part}. */
  public ToolResultAssert hasRuleContaining(String part) {
    isNotNull();
    for (String rule : actual.rules()) {
      if (rule.contains(part)) {
        return this;
      }
    }
    failReply("Expecting a rule containing %s, but the rules were %s", quote(part), actual.rules());
    return this;
  }

  /** A {@code <ui_passthrough>} block has this type and contains {@code part}. */
  public ToolResultAssert hasUiBlockContaining(String type, String part) {
    isNotNull();
    for (UiBlock b : actual.uiBlocks()) {
      if (b.type().equals(type) && b.content().contains(part)) {
        return this;
      }
    }
    failReply("Expecting a %s UI block containing %s, but the UI blocks were %s",
        quote(type), quote(part), actual.uiBlocks());
    return this;
  }

  /**
   * The {@code <ui_passthrough>} blocks are exactly these, in this order (the truncation summary,
   * when there is one, first).
   */
  public ToolResultAssert hasUiBlocks(UiBlock... expected) {
    isNotNull();
    if (!actual.uiBlocks().equals(List.of(expected))) {
      failReply("Expecting the UI blocks %s, but were %s", List.of(expected), actual.uiBlocks());
    }
    return this;
  }

  /** The collection was cut: {@code shown} items sent, {@code hidden} left out. */
  public ToolResultAssert isTruncated(int shown, long hidden) {
    isSuccess();
    ToolResult.Truncation t = actual.truncation();
    if (t == null || t.shown() != shown || t.hidden() == null || t.hidden() != hidden) {
      failReply("Expecting a truncation of %s shown, %s hidden, but was %s", shown, hidden, t);
    }
    return this;
  }

  /** The collection was cut after {@code shown} items, with more of unknown number behind them. */
  public ToolResultAssert isTruncatedWithMore(int shown) {
    isSuccess();
    ToolResult.Truncation t = actual.truncation();
    if (t == null || t.shown() != shown || !t.more()) {
      failReply("Expecting a truncation of %s shown and more available, but was %s", shown, t);
    }
    return this;
  }

  /** Nothing was cut. */
  public ToolResultAssert isNotTruncated() {
    isNotNull();
    if (actual.truncation() != null) {
      failReply("Expecting no truncation, but was %s", actual.truncation());
    }
    return this;
  }

  // ---- state sync ------------------------------------------------------------------------------

  /** The result carries an invalidation mark listing this domain pattern ({@code billing.*}). */
  public ToolResultAssert invalidates(String pattern) {
    isNotNull();
    ToolResult.Invalidation inv = actual.invalidation();
    if (inv == null || !inv.domains().contains(pattern)) {
      failReply("Expecting an invalidation of %s, but the invalidation was %s", quote(pattern), inv);
    }
    if (actual.blocks().isEmpty() || !actual.blocks().get(0).startsWith("<cache_invalidation ")) {
      failReply("Expecting the first block to be the <cache_invalidation /> mark");
    }
    return this;
  }

  /** Neither {@code _meta} nor any block carries an invalidation mark. */
  public ToolResultAssert hasNoInvalidation() {
    isNotNull();
    if (actual.invalidation() != null) {
      failReply("Expecting no invalidation, but was %s", actual.invalidation());
    }
    for (String block : actual.blocks()) {
      if (block.contains("<cache_invalidation")) {
        failReply("Expecting no <cache_invalidation> mark, but a block carries one");
      }
    }
    return this;
  }

  // ---- fields ----------------------------------------------------------------------------------

  /**
   * No object property named {@code name} occurs at any depth of the data, of
   * {@code structuredContent}, or of the raw reply's JSON (including {@code _meta} and JSON
   * embedded in text blocks).
   */
  public ToolResultAssert hasNoField(String name) {
    isNotNull();
    List<String> found = fieldPaths(name);
    if (!found.isEmpty()) {
      failReply("Expecting no field %s at any depth, but found it at %s", quote(name), found);
    }
    return this;
  }

  /** An object property named {@code name} occurs somewhere in the data, {@code structuredContent} or the reply. */
  public ToolResultAssert hasField(String name) {
    isNotNull();
    if (fieldPaths(name).isEmpty()) {
      failReply("Expecting a field %s at some depth, but found none", quote(name));
    }
    return this;
  }

  private List<String> fieldPaths(String name) {
    List<String> found = new ArrayList<>();
    for (String p : JsonTrees.pathsOf(actual.data(), name)) {
      found.add("data " + p);
    }
    for (String p : JsonTrees.pathsOf(actual.structuredTree(), name)) {
      found.add("structuredContent " + p);
    }
    if (actual.raw() != null) {
      for (String p : JsonTrees.pathsOfDeep(JsonTrees.tryParse(actual.raw()), name)) {
        found.add("reply " + p);
      }
    } else {
      for (String p : JsonTrees.pathsOfDeep(actual.meta(), name)) {
        found.add("_meta " + p);
      }
    }
    return found;
  }

  /** Assertions on the parsed data block (a {@code Map}, a {@code List}, a scalar or {@code null}). */
  public JsonTreeAssert data() {
    isNotNull();
    return new JsonTreeAssert(actual.data(), actual.toString()).as("data");
  }

  /** Assertions on {@code structuredContent} (a {@code Map} or {@code null}). */
  public JsonTreeAssert structuredContent() {
    isNotNull();
    return new JsonTreeAssert(actual.structuredContent(), actual.toString())
        .as("structuredContent");
  }

  /** The data block's text equals {@code text} (compact JSON, a string value, or {@code OK}). */
  public ToolResultAssert hasDataText(String text) {
    isSuccess();
    if (!Objects.equals(text, actual.dataText())) {
      failReply("Expecting the data block%n  %s%nbut was%n  %s", text, actual.dataText());
    }
    return this;
  }

  // ---- blocks ----------------------------------------------------------------------------------

  /** The result has exactly {@code count} text blocks. */
  public ToolResultAssert hasBlockCount(int count) {
    isNotNull();
    if (actual.blocks().size() != count) {
      failReply("Expecting %s blocks, but there were %s", count, actual.blocks().size());
    }
    return this;
  }

  /** Some text block equals {@code block} exactly. */
  public ToolResultAssert hasBlock(String block) {
    isNotNull();
    if (!actual.blocks().contains(block)) {
      failReply("Expecting a block equal to%n  %s", block);
    }
    return this;
  }

  /** Some text block contains {@code part}. */
  public ToolResultAssert hasBlockContaining(String part) {
    isNotNull();
    for (String b : actual.blocks()) {
      if (b.contains(part)) {
        return this;
      }
    }
    failReply("Expecting a block containing %s", quote(part));
    return this;
  }

  /** The text blocks are exactly these, in order. */
  public ToolResultAssert hasBlocks(String... blocks) {
    isNotNull();
    if (!actual.blocks().equals(List.of(blocks))) {
      failReply("Expecting the blocks%n  %s%nbut were%n  %s", List.of(blocks), actual.blocks());
    }
    return this;
  }

  /** The raw reply text does not contain {@code text} anywhere (e.g. a planted sentinel). */
  public ToolResultAssert rawDoesNotContain(String text) {
    isNotNull();
    if (actual.raw() == null) {
      failReply("Expecting a raw reply, but this result was not read off a wire");
    }
    if (actual.raw().contains(text)) {
      failReply("Expecting the raw reply not to contain %s", quote(text));
    }
    return this;
  }

  private void failReply(String message, Object... args) {
    failWithMessage(message + "%nReply: %s", append(args, actual));
  }

  private static Object[] append(Object[] args, Object last) {
    Object[] out = java.util.Arrays.copyOf(args, args.length + 1);
    out[args.length] = last;
    return out;
  }

  private static String quote(String s) {
    return s == null ? "null" : "\"" + s + "\"";
  }
}
