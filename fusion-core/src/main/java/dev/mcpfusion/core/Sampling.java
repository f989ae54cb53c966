package dev.mcpfusion.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A request for the client's model to write a message ({@code sampling/createMessage}), sent from
 * a handler with {@link RequestContext#sample}. The client decides which model answers, and may
 * show the request to its user first.
 *
 * <pre>{@code
 * Sampling.Result r = request.sample(Sampling.prompt("Summarise: " + text).maxTokens(200));
 * return r.text();
 * }</pre>
 *
 * <p>A builder: not thread-safe; each call of {@code sample} copies what it needs.
 */
public final class Sampling {
  private final List<Map<String, Object>> messages = new ArrayList<>();
  private String systemPrompt;
  private int maxTokens = 1000;

  private Sampling() {}

  /** A request whose conversation is one user message, {@code text}. */
  public static Sampling prompt(String text) {
    return new Sampling().user(text);
  }

  /** Adds a user message to the conversation. */
  public Sampling user(String text) {
    return message("user", text);
  }

  /** Adds an assistant message to the conversation (a few-shot example, an earlier answer). */
  public Sampling assistant(String text) {
    return message("assistant", text);
  }

  private Sampling message(String role, String text) {
    Objects.requireNonNull(text, "text");
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("type", "text");
    content.put("text", text);
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("role", role);
    message.put("content", content);
    messages.add(message);
    return this;
  }

  /** The system prompt the client may use. */
  public Sampling system(String systemPrompt) {
    this.systemPrompt = Objects.requireNonNull(systemPrompt, "systemPrompt");
    return this;
  }

  /** The most tokens the answer may have (default 1000). */
  public Sampling maxTokens(int maxTokens) {
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be at least 1; was " + maxTokens);
    }
    this.maxTokens = maxTokens;
    return this;
  }

  /** The {@code params} of {@code sampling/createMessage}, as a plain JSON tree. */
  Map<String, Object> params() {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("messages", List.copyOf(messages));
    if (systemPrompt != null) {
      params.put("systemPrompt", systemPrompt);
    }
    params.put("maxTokens", maxTokens);
    return params;
  }

  /**
   * What the client's model answered.
   *
   * @param role the role of the message, normally {@code assistant}
   * @param text the text of the answer ({@code ""} when its content is not text)
   * @param model the model that answered, as the client names it
   * @param stopReason why the model stopped ({@code endTurn}, {@code maxTokens}, …), or {@code null}
   * @param content the answer's content block as sent (a plain JSON tree)
   */
  public record Result(String role, String text, String model, String stopReason,
      Map<String, Object> content) {

    /** Reads a {@code sampling/createMessage} result; a field of the wrong type is left out. */
    static Result fromWire(Map<?, ?> result) {
      Map<String, Object> content = new LinkedHashMap<>();
      String text = "";
      if (result.get("content") instanceof Map<?, ?> c) {
        c.forEach((k, v) -> content.put(String.valueOf(k), v));
        if (c.get("text") instanceof String t) {
          text = t;
        }
      }
      return new Result(result.get("role") instanceof String r ? r : "assistant", text,
          result.get("model") instanceof String m ? m : "",
          result.get("stopReason") instanceof String s ? s : null,
          java.util.Collections.unmodifiableMap(content));
    }
  }
}
