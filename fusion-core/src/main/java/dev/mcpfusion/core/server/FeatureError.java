package dev.mcpfusion.core.server;

/**
 * A prompt, resource or completion request that gets a JSON-RPC error instead of a result: the
 * code, a message written for the client (never exception text) and optional {@code data} (a
 * plain JSON tree). Carries no stack trace: it is an answer, not a fault.
 */
public final class FeatureError extends RuntimeException {
  private final int code;
  private final transient Object data;

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
}
