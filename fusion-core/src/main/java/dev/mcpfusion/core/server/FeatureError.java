package dev.mcpfusion.core.server;

/**
 * A prompt, resource or completion request that gets a JSON-RPC error instead of a result: the
 * code, a message written for the client (never exception text) and optional {@code data} (a
 * plain JSON tree). Carries no stack trace: it is an answer, not a fault.
 */
public final class FeatureError extends RuntimeException {
  private final int code;
  private final transient Object data;
  private transient Throwable unexpected;
  private String incident;

  /** An error with {@code code}, {@code message} and {@code data} ({@code null} for none). */
  public FeatureError(int code, String message, Object data) {
    super(message, null, false, false);
    this.code = code;
    this.data = data;
  }

  /** The JSON-RPC error code. */
  public int code() {
    return code;
  }

  /** The error's {@code data}, or {@code null}. */
  public Object data() {
    return data;
  }

  /**
   * The framework's or the handler's code of this error ({@code UNKNOWN_PROMPT},
   * {@code SERVER_BUSY}, {@code NOT_FOUND}, …): the {@code code} member of {@link #data()}, which
   * every error the framework answers carries; {@code null} when there is none.
   */
  public String type() {
    return typeOf(data);
  }

  /** The {@code code} member of an error's {@code data}, or {@code null}. */
  public static String typeOf(Object data) {
    return data instanceof java.util.Map<?, ?> map && map.get("code") instanceof String type
        ? type : null;
  }

  /** This error, answering the unexpected exception {@code cause} logged with {@code incident}. */
  FeatureError unexpected(Throwable cause, String incident) {
    this.unexpected = cause;
    this.incident = incident;
    return this;
  }

  /**
   * The unexpected exception this {@code INTERNAL_ERROR} answers (for the span only: never on the
   * wire), or {@code null}.
   */
  public Throwable unexpected() {
    return unexpected;
  }

  /** The incident id of an {@code INTERNAL_ERROR}, or {@code null}. */
  public String incident() {
    return incident;
  }
}
