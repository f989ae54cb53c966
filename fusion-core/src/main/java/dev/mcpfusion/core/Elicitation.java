package dev.mcpfusion.core;

import java.util.Objects;
import java.util.Optional;

/**
 * The user's answer to a form a handler sent with {@link RequestContext#elicit}
 * ({@code elicitation/create}): accepted with values that match the form, declined, or cancelled.
 *
 * <pre>{@code
 * Elicitation<Shipping> answer = request.elicit(Shipping.class, "Where should we ship it?");
 * if (!answer.accepted()) {
 *   return "Nothing shipped (" + answer.action() + ")";
 * }
 * Shipping shipping = answer.form();
 * }</pre>
 *
 * @param <T> the form: a record whose components are the fields
 */
public final class Elicitation<T> {
  /** What the user did with the form. */
  public enum Action {
    /** Submitted the form; its values are in {@link #form()}. */
    ACCEPT,
    /** Explicitly refused to answer. */
    DECLINE,
    /** Dismissed the form without choosing. */
    CANCEL
  }

  private final Action action;
  private final T form;

  private Elicitation(Action action, T form) {
    this.action = action;
    this.form = form;
  }

  static <T> Elicitation<T> accepted(T form) {
    return new Elicitation<>(Action.ACCEPT, Objects.requireNonNull(form, "form"));
  }

  static <T> Elicitation<T> without(Action action) {
    return new Elicitation<>(action, null);
  }

  /** What the user did. */
  public Action action() {
    return action;
  }

  /** Whether the user submitted the form. */
  public boolean accepted() {
    return action == Action.ACCEPT;
  }

  /**
   * The submitted values.
   *
   * @throws IllegalStateException when the user declined or cancelled (check {@link #accepted()})
   */
  public T form() {
    if (form == null) {
      throw new IllegalStateException("The user did not submit the form (" + action
          + "); check accepted() before reading form()");
    }
    return form;
  }

  /** The submitted values, or empty when the user declined or cancelled. */
  public Optional<T> value() {
    return Optional.ofNullable(form);
  }

  @Override
  public String toString() {
    return "Elicitation[" + action + (form == null ? "" : ", " + form) + "]";
  }
}
