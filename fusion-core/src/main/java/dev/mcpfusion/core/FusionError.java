package dev.mcpfusion.core;

import dev.mcpfusion.wire.Codes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A failure the agent can recover from, thrown by a handler or a middleware and rendered as a
 * self-healing {@code <tool_error>} envelope.
 *
 * <pre>{@code
 * throw FusionError.notFound("Invoice \"" + id + "\" does not exist.")
 *     .recovery("Call billing.list_invoices first to find valid IDs.")
 *     .actions("billing.list_invoices");
 * }</pre>
 *
 * <p>The fluent methods refine this instance and return it, so the whole error is built in the
 * {@code throw} expression. No stack trace is captured: the error is a message to an agent, not a
 * bug report. Action references are logical ({@code router.action}); the framework renders them as
 * the agent can call them.
 */
public final class FusionError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** How the agent should read the error. */
  public enum Severity {
    /** The call failed. */
    ERROR,
    /** The call did not do what was asked, but nothing is broken (still {@code isError: true}). */
    WARNING
  }

  private final String code;
  private String recovery;
  private final List<String> actions = new ArrayList<>();
  private final Map<String, Object> details = new LinkedHashMap<>();
  private Duration retryAfter;
  private Severity severity = Severity.ERROR;

  private FusionError(String code, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.code = requireCode(code);
  }

  private static String requireCode(String code) {
    Objects.requireNonNull(code, "code");
    if (!code.matches("[A-Z][A-Z0-9_]*")) {
      throw new IllegalArgumentException(
          "FusionError code must match [A-Z][A-Z0-9_]* (e.g. NOT_FOUND), but was '" + code + "'");
    }
    return code;
  }

  /** An error with a free code such as {@code ALREADY_PAID}. */
  public static FusionError of(String code, String message) {
    return new FusionError(code, message);
  }

  /** {@code NOT_FOUND}: the thing the agent named does not exist. */
  public static FusionError notFound(String message) {
    return new FusionError(Codes.NOT_FOUND, message);
  }

  /** {@code CONFLICT}: the thing exists but is in a state that forbids the call. */
  public static FusionError conflict(String message) {
    return new FusionError("CONFLICT", message);
  }

  /** What the agent should do next, one or two sentences. */
  public FusionError recovery(String recovery) {
    this.recovery = recovery;
    return this;
  }

  /** Logical references ({@code router.action}) of actions that help the agent recover. */
  public FusionError actions(String... actions) {
    Collections.addAll(this.actions, actions);
    return this;
  }

  /**
   * One detail, rendered as {@code <detail key="...">value</detail>}. The value is either a scalar —
   * text, a number, a boolean, a character, an enum constant, a {@code UUID} or a {@code java.time}
   * value (or {@code null}), kept as its text — or a {@code @Presenter} view or a {@code @Model}: those
   * are rendered through their presenter (a model through the presenter the server registers for
   * it), as the compact JSON of what the presenter exposes. Any other object is refused because the
   * agent would read its {@code toString()}, and a record prints every component, {@code @Hidden}
   * ones too. A model without a presenter fails the call when the reply is built (never sending
   * its fields); where the processor sees such a call, with the model as the argument's static
   * type and no {@code @Presenter} for it in the compilation, it is a compile error
   * ({@code [fusion/UnpresentedDetail]}).
   *
   * @throws IllegalArgumentException for any other value, naming the key; pass the one field you
   *     mean (e.g. {@code invoice.id()}), or the model or its view, instead
   */
  public FusionError detail(String key, Object value) {
    Objects.requireNonNull(key, "key");
    if (value == null || isScalar(value)) {
      this.details.put(key, String.valueOf(value));
    } else if (isPresentable(value.getClass())) {
      this.details.put(key, value);
    } else {
      throw new IllegalArgumentException("FusionError.detail(\"" + key + "\", …) got a "
          + value.getClass().getName() + "; pass a scalar (text, number, boolean, enum, UUID, "
          + "java.time value), e.g. the one field you mean such as invoice.id(), or a @Model or "
          + "@Presenter view, which goes through its presenter: an object's toString() could carry "
          + "a @Hidden value to the agent.");
    }
    return this;
  }

  private static boolean isScalar(Object value) {
    return value instanceof CharSequence || value instanceof Number || value instanceof Boolean
        || value instanceof Character || value instanceof Enum<?> || value instanceof java.util.UUID
        || value instanceof java.time.temporal.TemporalAccessor
        || value instanceof java.time.temporal.TemporalAmount;
  }

  /** A view, or a model (or a subclass of one, such as an ORM proxy). */
  private static boolean isPresentable(Class<?> type) {
    if (type.isAnnotationPresent(dev.mcpfusion.annotation.Presenter.class)) {
      return true;
    }
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      if (c.isAnnotationPresent(dev.mcpfusion.annotation.Model.class)) {
        return true;
      }
    }
    return false;
  }

  /** Details in iteration order. */
  public FusionError details(Map<String, ?> details) {
    details.forEach(this::detail);
    return this;
  }

  /** How long the agent should wait before retrying. */
  public FusionError retryAfter(Duration retryAfter) {
    this.retryAfter = retryAfter;
    return this;
  }

  /** Marks this a warning ({@code severity="warning"}, still {@code isError: true}). */
  public FusionError warning() {
    this.severity = Severity.WARNING;
    return this;
  }

  /** The error code. */
  public String code() {
    return code;
  }

  /** The recovery sentence, or {@code null}. */
  public String recovery() {
    return recovery;
  }

  /** The logical action references, in order. */
  public List<String> actions() {
    return Collections.unmodifiableList(actions);
  }

  /**
   * The details, in insertion order: scalars as their text, views and models as given (the
   * framework renders them through their presenter).
   */
  public Map<String, Object> details() {
    return Collections.unmodifiableMap(details);
  }

  /** The retry delay, or {@code null}. */
  public Duration retryAfter() {
    return retryAfter;
  }

  /** The severity. */
  public Severity severity() {
    return severity;
  }
}
