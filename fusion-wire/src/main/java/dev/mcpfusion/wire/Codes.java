package dev.mcpfusion.wire;

/**
 * The framework's own error codes, as they appear in {@code <tool_error code="…">}, in
 * {@code _meta["mcpfusion/error"].code} and as a span's {@code error.type}. A connector's own codes
 * ({@code NOT_FOUND}, {@code CONFLICT}, …) are free strings beside these.
 */
public final class Codes {
  private Codes() {}

  public static final String UNKNOWN_TOOL = "UNKNOWN_TOOL";
  public static final String UNKNOWN_ACTION = "UNKNOWN_ACTION";
  public static final String MISSING_DISCRIMINATOR = "MISSING_DISCRIMINATOR";
  public static final String INVALID_DISCRIMINATOR = "INVALID_DISCRIMINATOR";
  public static final String VALIDATION_ERROR = "VALIDATION_ERROR";
  public static final String INTERNAL_ERROR = "INTERNAL_ERROR";
  public static final String SERVER_BUSY = "SERVER_BUSY";
  public static final String TIMEOUT = "TIMEOUT";
  public static final String PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE";
  /** The caller lacks a scope the action requires ({@code @Scopes}). */
  public static final String FORBIDDEN = "FORBIDDEN";
  /** A handler's {@code Optional.empty()}, and the usual code of a missing entity. */
  public static final String NOT_FOUND = "NOT_FOUND";
  /** An upstream the handler calls is unavailable (its circuit is open: fusion-resilience). */
  public static final String UPSTREAM_UNAVAILABLE = "UPSTREAM_UNAVAILABLE";
  /** An outbound call refused by the URL policy (fusion-outbound): the host or its address may not be called. */
  public static final String OUTBOUND_BLOCKED = "OUTBOUND_BLOCKED";
  /** An upstream's answer exceeded the response byte cap (fusion-outbound). */
  public static final String UPSTREAM_TOO_LARGE = "UPSTREAM_TOO_LARGE";
}
