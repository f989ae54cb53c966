package dev.mcpfusion.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@code @Prompt} method returns: the messages of a {@code prompts/get} result, in order,
 * and optionally data for the prompt's presenter.
 *
 * <pre>{@code
 * @Prompt(description = "Summarise a customer's overdue invoices", presenter = InvoiceView.class)
 * PromptResult overdue(@NotBlank @Describe("Customer id") String customer, @Context Tenant t) {
 *   return PromptResult.user("Summarise the overdue invoices of " + customer + " for a person.")
 *       .data(store.overdue(t, customer));
 * }
 * }</pre>
 *
 * <p>With {@code @Prompt(presenter = V.class)}, {@link #data(Object)} (a model, a view, a row or a
 * collection, array, {@code Optional}, {@code Iterable} or {@code Stream} of them) goes through the
 * same strip, limit and rules step as a tool result: the stripped data (and a truncation summary)
 * becomes one user message after these messages, and the presenter's rules a last user message,
 * the guidance. No {@code @Hidden} value can leave. Without a presenter, {@code data} is refused.
 *
 * <p>Immutable: every method returns a new result.
 */
public final class PromptResult {
  /** Who speaks a message. */
  public enum Role {
    /** The user. */
    USER,
    /** The assistant. */
    ASSISTANT;

    /** The MCP role name: {@code user} or {@code assistant}. */
    public String wire() {
      return this == USER ? "user" : "assistant";
    }
  }

  /**
   * One message.
   *
   * @param role who speaks it
   * @param content the MCP content block as a plain JSON tree ({@code type} and its members)
   */
  public record Message(Role role, Map<String, Object> content) {
    public Message {
      Objects.requireNonNull(role, "role");
      content = Collections.unmodifiableMap(new LinkedHashMap<>(content));
    }
  }

  private static final Object NO_DATA = new Object();

  private final String description;
  private final List<Message> messages;
  private final Object data;

  private PromptResult(String description, List<Message> messages, Object data) {
    this.description = description;
    this.messages = List.copyOf(messages);
    this.data = data;
  }

  /** A result without messages (add them with the instance methods). */
  public static PromptResult empty() {
    return new PromptResult(null, List.of(), NO_DATA);
  }

  /** A result with one user text message. */
  public static PromptResult user(String text) {
    return empty().text(Role.USER, text);
  }

  /** A result with one assistant text message. */
  public static PromptResult assistant(String text) {
    return empty().text(Role.ASSISTANT, text);
  }

  /** This result and a text message. */
  public PromptResult text(Role role, String text) {
    Objects.requireNonNull(text, "text");
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("type", "text");
    content.put("text", text);
    return with(new Message(role, content));
  }

  /**
   * This result and a message of any content a tool result can carry ({@link Content}: text,
   * image, audio, embedded resource, resource link).
   */
  public PromptResult add(Role role, Content content) {
    Objects.requireNonNull(content, "content");
    return with(new Message(role, content.toWire()));
  }

  /** This result and an image message ({@code data} is the raw image; it is sent base64). */
  public PromptResult image(Role role, byte[] data, String mimeType) {
    return add(role, Content.image(data, mimeType));
  }

  /** This result and an audio message ({@code data} is the raw audio; it is sent base64). */
  public PromptResult audio(Role role, byte[] data, String mimeType) {
    return add(role, Content.audio(data, mimeType));
  }

  /** This result and a message embedding a text resource. */
  public PromptResult resource(Role role, String uri, String mimeType, String text) {
    return add(role, Content.resource(uri, mimeType, text));
  }

  /** This result with a description (MCP {@code description} of the {@code prompts/get} result). */
  public PromptResult description(String description) {
    return new PromptResult(description, messages, data);
  }

  /**
   * This result with data for the prompt's presenter; presented after the messages (see the class
   * comment). A {@code null} is sent as no data.
   */
  public PromptResult data(Object data) {
    return new PromptResult(description, messages, data);
  }

  /** The description, or {@code null}. */
  public String description() {
    return description;
  }

  /** The messages, in order (without the presented data). */
  public List<Message> messages() {
    return messages;
  }

  /** Whether {@link #data(Object)} was set. */
  public boolean hasData() {
    return data != NO_DATA;
  }

  /** The data for the presenter, or {@code null} when none was set. */
  public Object data() {
    return data == NO_DATA ? null : data;
  }

  private PromptResult with(Message message) {
    List<Message> all = new ArrayList<>(messages);
    all.add(message);
    return new PromptResult(description, all, data);
  }
}
