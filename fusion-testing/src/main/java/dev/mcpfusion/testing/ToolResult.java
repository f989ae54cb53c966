package dev.mcpfusion.testing;

import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import dev.mcpfusion.wire.Meta;
import dev.mcpfusion.testing.internal.JsonTrees;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The answer to one {@code tools/call}, as the client received it, with the MCP Fusion parts read
 * out: the data block, {@code structuredContent}, rules, suggestions, UI blocks, the invalidation
 * mark, the truncation notice and the error envelope.
 *
 * <p>Two kinds of reply become a {@code ToolResult}: a tool result ({@link #result()}),
 * successful or {@code isError: true}, and a JSON-RPC error reply such as {@code UNKNOWN_TOOL}
 * ({@link #jsonRpcError()}), which {@link #isError()} reports as an error too. The structured
 * facts come from the result's {@code _meta} ({@code mcpfusion/*}); when {@code _meta} carries no
 * {@code mcpfusion/error} (a JSON-RPC error), the error parts are read from the envelope text.
 *
 * <p>Immutable and thread-safe.
 */
public final class ToolResult {
  /** {@code _meta} key of the invalidation mark. */
  public static final String META_INVALIDATION = Meta.INVALIDATION;
  /** {@code _meta} key of the rule lines. */
  public static final String META_RULES = Meta.RULES;
  /** {@code _meta} key of the suggestions (logical references). */
  public static final String META_SUGGESTIONS = Meta.SUGGESTIONS;
  /** {@code _meta} key of the truncation notice. */
  public static final String META_TRUNCATION = Meta.TRUNCATION;
  /** {@code _meta} key of the error facts. */
  public static final String META_ERROR = Meta.ERROR;

  private static final Pattern UI_BLOCK =
      Pattern.compile("\\A<ui_passthrough type=\"([^\"]*)\"(?: title=\"([^\"]*)\")?>\\n(.*)\\n"
          + "</ui_passthrough>\\z", Pattern.DOTALL);

  /** The invalidation mark of a successful mutation: logical cause and domain patterns. */
  public record Invalidation(String cause, List<String> domains) {
    public Invalidation {
      domains = List.copyOf(domains);
    }
  }

  /**
   * The truncation notice of a cut collection.
   *
   * @param shown items sent
   * @param hidden items left out, or {@code null} when the size was unknown ({@code more})
   * @param more whether the notice says only that more items exist
   */
  public record Truncation(int shown, Long hidden, boolean more) {}

  /** A JSON-RPC error reply: its code, message and (plain JSON) data. */
  public record JsonRpcError(int code, String message, Object data) {}

  /** One bad field of a validation error: its path and its line. */
  public record FieldError(String path, String message) {}

  /** The reply's {@code result} member, deeply unmodifiable; {@code null} for a JSON-RPC error. */
  private final Map<String, Object> result;
  private final JsonRpcError jsonRpcError;
  private final String raw;
  private final List<String> blocks;
  private final Map<String, Object> meta;
  private final ErrorEnvelope error;

  @SuppressWarnings("unchecked")
  private ToolResult(Map<String, ?> result, JsonRpcError jsonRpcError, String raw) {
    this.result = result == null ? null : (Map<String, Object>) JsonTrees.frozen(result);
    this.jsonRpcError = jsonRpcError;
    this.raw = raw;
    if (this.result != null) {
      List<String> texts = new ArrayList<>();
      for (Map<String, Object> block : content()) {
        if ("text".equals(block.get("type")) && block.get("text") instanceof String text) {
          texts.add(text);
        }
      }
      this.blocks = Collections.unmodifiableList(texts);
      this.meta = this.result.get("_meta") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    } else {
      this.blocks = jsonRpcError.message() == null ? List.of() : List.of(jsonRpcError.message());
      this.meta = Map.of();
    }
    Object facts = meta.get(META_ERROR);
    this.error = new ErrorEnvelope(facts instanceof Map<?, ?> m ? JsonTrees.stringKeys(m) : null,
        isError() && !blocks.isEmpty() ? blocks.get(0) : null, jsonRpcError);
  }

  /**
   * A result the client received.
   *
   * @param result the {@code result} member of the {@code tools/call} reply, as a plain JSON tree
   *     ({@code content}, {@code isError}, {@code structuredContent}, {@code _meta})
   * @param raw the JSON-RPC reply text it was read from, or {@code null} when it was not read off a wire
   */
  public static ToolResult of(Map<String, ?> result, String raw) {
    return new ToolResult(Objects.requireNonNull(result, "result"), null, raw);
  }

  /** A JSON-RPC error reply, with its raw text ({@code null} if unknown). */
  public static ToolResult ofJsonRpcError(JsonRpcError error, String raw) {
    return new ToolResult(null, Objects.requireNonNull(error, "error"), raw);
  }

  /**
   * Reads a JSON-RPC reply text: an {@code error} member gives a JSON-RPC error result, a
   * {@code result} member a tool result.
   */
  public static ToolResult fromReply(String raw) {
    Object tree = JsonTrees.parse(Objects.requireNonNull(raw, "raw"));
    if (!(tree instanceof Map<?, ?> reply)) {
      throw new IllegalArgumentException("Not a JSON-RPC reply: " + raw);
    }
    if (reply.get("error") instanceof Map<?, ?> error) {
      Object code = error.get("code");
      return ofJsonRpcError(new JsonRpcError(code instanceof Number n ? n.intValue() : 0,
          error.get("message") instanceof String s ? s : null, error.get("data")), raw);
    }
    if (reply.get("result") instanceof Map<?, ?> result) {
      return of(JsonTrees.stringKeys(result), raw);
    }
    throw new IllegalArgumentException("A JSON-RPC reply needs a result or an error: " + raw);
  }

  /** Whether the call failed: {@code isError: true} (warnings included) or a JSON-RPC error. */
  public boolean isError() {
    return jsonRpcError != null || Boolean.TRUE.equals(result.get("isError"));
  }

  /** Whether the call succeeded ({@code isError} not true and no JSON-RPC error). */
  public boolean isSuccess() {
    return !isError();
  }

  /**
   * The text content items in order. For a JSON-RPC error, its message (the text a client passes
   * to the model) as the single block.
   */
  public List<String> blocks() {
    return blocks;
  }

  /**
   * Every block of the result's {@code content} as sent — text, image, audio, resource,
   * resource_link — each a plain JSON tree ({@code type} and its members); empty for a JSON-RPC
   * error.
   */
  @SuppressWarnings("unchecked")
  public List<Map<String, Object>> content() {
    List<Map<String, Object>> out = new ArrayList<>();
    if (result != null && result.get("content") instanceof List<?> items) {
      for (Object block : items) {
        if (block instanceof Map<?, ?> m) {
          out.add((Map<String, Object>) m);
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** The data block of a successful result (compact JSON, a raw string value, or {@code OK}), or {@code null}. */
  public String dataText() {
    if (isError()) {
      return null;
    }
    int index = !blocks.isEmpty() && blocks.get(0).startsWith("<cache_invalidation") ? 1 : 0;
    return index < blocks.size() ? blocks.get(index) : null;
  }

  /**
   * The data block parsed as JSON: a {@code Map} for one item, a {@code List} for a collection,
   * a scalar for a value written as JSON; {@code null} when there is no data block or it is not
   * JSON (a {@code String} value, a void action's {@code OK}).
   */
  public Object data() {
    String text = dataText();
    return text == null ? null : JsonTrees.tryParse(text);
  }

  /** The {@code structuredContent} as a map, or {@code null} when absent. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> structuredContent() {
    Object tree = structuredTree();
    if (tree == null || tree instanceof Map<?, ?>) {
      return (Map<String, Object>) tree;
    }
    throw new IllegalStateException("structuredContent is not an object: " + tree);
  }

  /** {@code structuredContent} as a plain tree of any shape, or {@code null} (for searches). */
  Object structuredTree() {
    return result == null ? null : result.get("structuredContent");
  }

  /** The rule lines of {@code _meta} {@value #META_RULES} (empty if none). */
  public List<String> rules() {
    return strings(meta.get(META_RULES));
  }

  /** The suggestions of {@code _meta} {@value #META_SUGGESTIONS}, with logical action references. */
  public List<Suggestion> suggestions() {
    List<Suggestion> out = new ArrayList<>();
    if (meta.get(META_SUGGESTIONS) instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Map<?, ?> m) {
          Map<String, Object> args = m.get("arguments") instanceof Map<?, ?> a
              ? JsonTrees.stringKeys(a) : Map.of();
          out.add(Suggestion.of(String.valueOf(m.get("action")), String.valueOf(m.get("reason")), args));
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * The {@code <ui_passthrough>} blocks in order (the truncation summary first, then the view's
   * {@code @Ui} blocks), type, title and text unescaped; a block without a title has a
   * {@code null} one.
   */
  public List<UiBlock> uiBlocks() {
    List<UiBlock> out = new ArrayList<>();
    for (String block : blocks) {
      Matcher m = UI_BLOCK.matcher(block);
      if (m.matches()) {
        out.add(new UiBlock(unescape(m.group(1)), m.group(2) == null ? null : unescape(m.group(2)),
            unescape(m.group(3))));
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** The invalidation mark of {@code _meta} {@value #META_INVALIDATION}, or {@code null}. */
  public Invalidation invalidation() {
    if (meta.get(META_INVALIDATION) instanceof Map<?, ?> m) {
      return new Invalidation(String.valueOf(m.get("cause")), strings(m.get("domains")));
    }
    return null;
  }

  /** The truncation notice of {@code _meta} {@value #META_TRUNCATION}, or {@code null}. */
  public Truncation truncation() {
    if (meta.get(META_TRUNCATION) instanceof Map<?, ?> m) {
      int shown = m.get("shown") instanceof Number n ? n.intValue() : -1;
      Long hidden = m.get("hidden") instanceof Number n ? n.longValue() : null;
      return new Truncation(shown, hidden, Boolean.TRUE.equals(m.get("more")));
    }
    return null;
  }

  /** The envelope text of an error (its single text block, or the JSON-RPC message), or {@code null}. */
  public String errorText() {
    return error.text();
  }

  /**
   * The error code: {@code mcpfusion/error.code}; for a JSON-RPC error its {@code data.code}; else
   * the code of the envelope text ({@code VALIDATION_ERROR} for a {@code <validation_error>}).
   * {@code null} on success.
   */
  public String errorCode() {
    return isError() ? error.code() : null;
  }

  /** The severity, {@code "error"} or {@code "warning"}; {@code null} on success. */
  public String severity() {
    return isError() ? error.severity() : null;
  }

  /** Whether this is an error marked {@code severity="warning"}. */
  public boolean isWarning() {
    return "warning".equals(severity());
  }

  /** The recovery sentence of the error, or {@code null}. */
  public String recovery() {
    return isError() ? error.recovery() : null;
  }

  /** The actions the error offers, as rendered for the agent (empty if none). */
  public List<String> actions() {
    return isError() ? error.actions() : List.of();
  }

  /** The error details (key to value, in order); empty if none. */
  public Map<String, String> details() {
    return isError() ? error.details() : Map.of();
  }

  /** The retry delay in seconds, or {@code null}. */
  public Long retryAfterSeconds() {
    return isError() ? error.retryAfterSeconds() : null;
  }

  /** The bad fields of a validation error, in order (empty otherwise). */
  public List<FieldError> fieldErrors() {
    return isError() ? error.fieldErrors() : List.of();
  }

  /** The JSON-RPC error, when the reply was one; else {@code null}. */
  public JsonRpcError jsonRpcError() {
    return jsonRpcError;
  }

  /** The raw JSON-RPC reply text, or {@code null} when this result was not read off a wire. */
  public String raw() {
    return raw;
  }

  /** The result's {@code _meta} (empty if none or for a JSON-RPC error). */
  public Map<String, Object> meta() {
    return meta;
  }

  /**
   * The reply's {@code result} member as a plain JSON tree (unmodifiable), or {@code null} for a
   * JSON-RPC error reply.
   */
  public Map<String, Object> result() {
    return result;
  }

  /**
   * The reply as a person reads it (used by every assertion failure): the outcome, each text
   * block on its own lines, {@code structuredContent} and {@code _meta} as compact JSON. The exact
   * wire text is {@link #raw()}.
   */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    if (jsonRpcError != null) {
      out.append("JSON-RPC error ").append(jsonRpcError.code());
      if (jsonRpcError.data() != null) {
        out.append(", data ").append(JsonTrees.write(JsonTrees.plain(jsonRpcError.data())));
      }
      out.append('\n');
      appendIndented(out, "  ", String.valueOf(jsonRpcError.message()));
      return out.toString();
    }
    out.append(isError() ? "tool error" : "tool result").append(", ").append(blocks.size())
        .append(blocks.size() == 1 ? " block" : " blocks").append('\n');
    for (int i = 0; i < blocks.size(); i++) {
      appendIndented(out, "  [" + i + "] ", blocks.get(i));
    }
    if (structuredTree() != null) {
      out.append("  structuredContent ").append(JsonTrees.write(structuredTree())).append('\n');
    }
    if (!meta.isEmpty()) {
      out.append("  _meta ").append(JsonTrees.write(JsonTrees.plain(meta))).append('\n');
    }
    return out.toString();
  }

  private static void appendIndented(StringBuilder out, String first, String text) {
    String pad = " ".repeat(first.length());
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      out.append(i == 0 ? first : pad).append(lines[i]).append('\n');
    }
  }

  static List<String> strings(Object value) {
    if (!(value instanceof List<?> list)) {
      return List.of();
    }
    List<String> out = new ArrayList<>(list.size());
    for (Object o : list) {
      out.add(String.valueOf(o));
    }
    return Collections.unmodifiableList(out);
  }

  /** Undoes the envelope escaping ({@code & < > " '}). */
  static String unescape(String s) {
    if (s.indexOf('&') < 0) {
      return s;
    }
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&#39;", "'").replace("&apos;", "'").replace("&amp;", "&");
  }
}
