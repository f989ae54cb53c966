package dev.mcpfusion.core;

import dev.mcpfusion.core.elicit.Forms;
import dev.mcpfusion.wire.JsonRpc;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One thing a handler asks the client — a form for the user, a message from the client's model,
 * the client's roots — for {@link RequestContext#ask} and {@link RequestContext#askAll}, which ask
 * several at once. {@link RequestContext#elicit}, {@link RequestContext#sample} and
 * {@link RequestContext#roots} ask one of them.
 *
 * <pre>{@code
 * Question<Elicitation<UserName>> name = Question.form(UserName.class, "What is your name?").key("user_name");
 * Question<List<Root>> roots = Question.roots();
 * Answers answers = request.askAll(name, roots);     // one round trip in the 2026-07-28 era
 * }</pre>
 *
 * <p>In a 2025-11-25 session each question is a request to the client, sent one after the other.
 * In the 2026-07-28 era the questions of one {@code askAll} become the {@code inputRequests} of one
 * input-required result, under their keys ({@link #key}; by default the method and the question's
 * place, such as {@code elicitation_1}).
 *
 * @param <T> what the answer is read as
 */
public final class Question<T> {
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final String key;
  private final String capability;
  private final String method;
  private final Map<String, Object> params;
  private final Function<Map<String, Object>, T> reader;

  private Question(String key, String capability, String method, Map<String, Object> params,
      Function<Map<String, Object>, T> reader) {
    this.key = key;
    this.capability = capability;
    this.method = method;
    this.params = params;
    this.reader = reader;
  }

  /**
   * A form made from the record {@code form} ({@code elicitation/create}); see
   * {@link RequestContext#elicit(Class, String)} for the fields it may have.
   *
   * @throws IllegalArgumentException when {@code form} is not a record of such fields
   */
  public static <T> Question<Elicitation<T>> form(Class<T> form, String message) {
    return form(form, null, message);
  }

  /** Like {@link #form(Class, String)}, pre-filled with every non-null component of {@code defaults}. */
  @SuppressWarnings("unchecked")
  public static <T extends Record> Question<Elicitation<T>> formWithDefaults(T defaults, String message) {
    Objects.requireNonNull(defaults, "defaults");
    return form((Class<T>) defaults.getClass(), defaults, message);
  }

  private static <T> Question<Elicitation<T>> form(Class<T> form, Object defaults, String message) {
    Objects.requireNonNull(form, "form");
    Objects.requireNonNull(message, "message");
    Forms.Form shape = Forms.of(form);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("message", message);
    params.put("requestedSchema", shape.schema(defaults));
    return new Question<>(null, "elicitation", JsonRpc.ELICITATION_CREATE, params,
        result -> read(form, shape, result));
  }

  private static <T> Elicitation<T> read(Class<T> form, Forms.Form shape, Map<String, Object> result) {
    Object action = result.get("action");
    if ("decline".equals(action)) {
      return Elicitation.without(Elicitation.Action.DECLINE);
    }
    if ("cancel".equals(action)) {
      return Elicitation.without(Elicitation.Action.CANCEL);
    }
    if (!"accept".equals(action)) {
      throw FusionError.of("INVALID_ELICITATION", "The client's answer to the " + form.getSimpleName()
          + " form has the action " + (action == null ? "(none)" : "'" + action + "'")
          + "; expected accept, decline or cancel.");
    }
    return Elicitation.accepted(form.cast(shape.read(result.get("content"))));
  }

  /** A message written by the client's model ({@code sampling/createMessage}). */
  public static Question<Sampling.Result> sampling(Sampling request) {
    Objects.requireNonNull(request, "request");
    return new Question<>(null, "sampling", JsonRpc.SAMPLING_CREATE_MESSAGE, request.params(),
        Sampling.Result::fromWire);
  }

  /** The client's roots ({@code roots/list}). */
  public static Question<List<Root>> roots() {
    return new Question<>(null, "roots", JsonRpc.ROOTS_LIST, new LinkedHashMap<>(), Root::fromWire);
  }

  /**
   * This question under {@code key}: its key among the {@code inputRequests} of a 2026-07-28
   * input-required result (letters, digits, {@code _ . -}, at most 64). Keys must differ within
   * one handler, and stay the same from one round to the next.
   *
   * @throws IllegalArgumentException for a key of other characters or length
   */
  public Question<T> key(String key) {
    Objects.requireNonNull(key, "key");
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("A question key is 1 to 64 letters, digits, '_', '.' or '-';"
          + " was '" + key + "'.");
    }
    return new Question<>(key, capability, method, params, reader);
  }

  /** The key set with {@link #key}, or {@code null} for an automatic one. */
  public String key() {
    return key;
  }

  /** The MCP method that asks it: {@code elicitation/create}, {@code sampling/createMessage} or {@code roots/list}. */
  public String method() {
    return method;
  }

  /** The client capability it needs: {@code elicitation}, {@code sampling} or {@code roots}. */
  String capability() {
    return capability;
  }

  /** Its {@code params}, as a fresh plain JSON tree. */
  Map<String, Object> params() {
    return new LinkedHashMap<>(params);
  }

  /** Reads the client's result. */
  T read(Map<String, Object> result) {
    return reader.apply(result);
  }
}
