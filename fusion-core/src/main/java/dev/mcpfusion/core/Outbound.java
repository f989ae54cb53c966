package dev.mcpfusion.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One message the server is about to send, as an {@link EgressFilter} sees it: its channel, the
 * JSON-RPC method it answers or sends, what it is about (a tool, prompt, resource or completion
 * target; {@code null} for none) and its body as a plain JSON tree (maps, lists, strings, numbers,
 * booleans, {@code null}), already redacted and not to be changed in place.
 *
 * <p>The tree of each channel: a tool result's {@code result} object ({@code content},
 * {@code isError}, {@code structuredContent}, {@code _meta}); a prompt's, resource's or
 * completion's {@code result} object; a notification's or a request's {@code params}.
 *
 * <p>Immutable: {@link #rewrite} and {@link #veto} return a new message.
 */
public final class Outbound {
  private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");

  /** Where a message goes out. */
  public enum Channel {
    /** A {@code tools/call} result, success or error envelope (with what the handler attached). */
    TOOL_RESULT,
    /** A {@code prompts/get} result. */
    PROMPT,
    /** A {@code resources/read} result. */
    RESOURCE,
    /** A {@code completion/complete} result. */
    COMPLETION,
    /** A {@code notifications/progress} a handler sends. */
    PROGRESS,
    /** A {@code notifications/message} (log) a handler sends. */
    LOG,
    /** A {@code sampling/createMessage} request a handler sends the client. */
    SAMPLING,
    /** An {@code elicitation/create} request a handler sends the client. */
    ELICITATION,
    /** A {@code roots/list} request a handler sends the client. */
    ROOTS,
    /** A {@code notifications/resources/updated} after a mutation. */
    RESOURCE_UPDATED
  }

  private final Channel channel;
  private final String method;
  private final String target;
  private final Map<String, Object> tree;
  private final boolean rewritten;
  private final String vetoCode;
  private final String vetoMessage;

  private Outbound(Channel channel, String method, String target, Map<String, Object> tree,
      boolean rewritten, String vetoCode, String vetoMessage) {
    this.channel = channel;
    this.method = method;
    this.target = target;
    this.tree = tree;
    this.rewritten = rewritten;
    this.vetoCode = vetoCode;
    this.vetoMessage = vetoMessage;
  }

  /**
   * A message on {@code channel} whose body is {@code tree} (copied into an unmodifiable tree).
   * For the framework's egress chain; filters receive messages, they do not make them.
   */
  public static Outbound of(Channel channel, String method, String target, Map<String, ?> tree) {
    return new Outbound(Objects.requireNonNull(channel, "channel"),
        Objects.requireNonNull(method, "method"), target, frozen(tree), false, null, null);
  }

  /** The channel. */
  public Channel channel() {
    return channel;
  }

  /** The JSON-RPC method the message answers ({@code tools/call}) or sends ({@code notifications/progress}). */
  public String method() {
    return method;
  }

  /**
   * What the message is about: the tool name, the prompt name, the resource URI, the completion's
   * prompt or template; {@code null} for none (a resource update names its URI in the tree).
   */
  public String target() {
    return target;
  }

  /** The body, an unmodifiable plain JSON tree. */
  public Map<String, Object> tree() {
    return tree;
  }

  /**
   * This message with {@code tree} as its body instead, written as the filter gives it (a plain
   * JSON tree of the same shape: a tool result keeps {@code content}, a notification its params).
   *
   * @throws IllegalArgumentException if {@code tree} holds anything but plain JSON values
   */
  public Outbound rewrite(Map<String, ?> tree) {
    return new Outbound(channel, method, target, frozen(Objects.requireNonNull(tree, "tree")),
        true, null, null);
  }

  /**
   * This message refused: nothing of it is sent. The client learns {@code code} and
   * {@code message} (and an incident id the server log repeats).
   *
   * @param code an upper-case code such as {@code POLICY} ({@code [A-Z][A-Z0-9_]*}, at most 64)
   * @param message what the agent may read about the refusal; never the refused data
   * @throws IllegalArgumentException for a malformed code or a blank message
   */
  public Outbound veto(String code, String message) {
    if (code == null || !CODE.matcher(code).matches()) {
      throw new IllegalArgumentException("A veto code is upper case, like POLICY ([A-Z][A-Z0-9_]*, at"
          + " most 64 characters), not " + (code == null ? "null" : "'" + code + "'") + ".");
    }
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("A veto needs a message the agent can act on.");
    }
    return new Outbound(channel, method, target, tree, false, code, message);
  }

  /** Whether a filter refused the message. */
  public boolean vetoed() {
    return vetoCode != null;
  }

  /** Whether a filter replaced the body. */
  public boolean rewritten() {
    return rewritten;
  }

  /** The veto's code, or {@code null}. */
  public String vetoCode() {
    return vetoCode;
  }

  /** The veto's message, or {@code null}. */
  public String vetoMessage() {
    return vetoMessage;
  }

  @Override
  public String toString() {
    return "Outbound[" + channel + " " + method + (target == null ? "" : " " + target)
        + (vetoed() ? ", vetoed " + vetoCode : rewritten ? ", rewritten" : "") + "]";
  }

  private static Map<String, Object> frozen(Map<String, ?> tree) {
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) freeze(tree, 0);
    return copy;
  }

  private static Object freeze(Object value, int depth) {
    if (depth > 512) {
      throw new IllegalArgumentException("The tree is nested deeper than 512 levels.");
    }
    if (value == null || value instanceof String || value instanceof Boolean
        || value instanceof Number) {
      return value;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> {
        if (!(k instanceof String key)) {
          throw new IllegalArgumentException("A JSON object's keys are strings, not " + k + ".");
        }
        out.put(key, freeze(v, depth + 1));
      });
      return Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object v : list) {
        out.add(freeze(v, depth + 1));
      }
      return Collections.unmodifiableList(out);
    }
    throw new IllegalArgumentException("Not a plain JSON value: a " + value.getClass().getName()
        + " (use maps, lists, strings, numbers, booleans and null).");
  }
}
