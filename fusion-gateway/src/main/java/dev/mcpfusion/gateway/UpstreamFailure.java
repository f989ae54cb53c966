package dev.mcpfusion.gateway;

/**
 * An upstream that did not answer as an MCP server must: its process exited, its endpoint refused
 * the connection or answered an HTTP error, it sent what is not JSON-RPC, or it took too long. The
 * message is written for the agent (it names no exception, host or path); the cause, if any, is for
 * the gateway's log. The circuit breaker counts it as a failure.
 */
final class UpstreamFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, which decides the envelope the agent reads. */
  enum Kind {
    /** The upstream could not be reached or stopped answering: retry later. */
    UNAVAILABLE,
    /** The call was sent and no answer came in time: it may have taken effect. */
    TIMEOUT,
    /** An HTTP upstream no longer knows the gateway's session: reconnect and send again. */
    SESSION_LOST
  }

  private final Kind kind;

  UpstreamFailure(Kind kind, String message, Throwable cause) {
    super(message, cause, false, false);
    this.kind = kind;
  }

  static UpstreamFailure unavailable(String message) {
    return new UpstreamFailure(Kind.UNAVAILABLE, message, null);
  }

  static UpstreamFailure unavailable(String message, Throwable cause) {
    return new UpstreamFailure(Kind.UNAVAILABLE, message, cause);
  }

  Kind kind() {
    return kind;
  }
}
