package dev.mcpfusion.auth;

import java.time.Duration;

/**
 * A credential could not be checked because the issuer did not answer (its metadata, key set or
 * introspection endpoint): answered {@code 503} with {@code Retry-After}, not {@code 401}, since a
 * valid token is no fault of the client's. Without a stack trace, and never carries the credential.
 */
final class Unavailable extends Exception {
  private static final long serialVersionUID = 1L;

  /** The hint sent when nothing better is known: the soonest a failed fetch is worth repeating. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(10);

  private final transient Duration retryAfter;

  Unavailable(String reason, Duration retryAfter) {
    super(reason, null, false, false);
    this.retryAfter = retryAfter;
  }

  Duration retryAfter() {
    return retryAfter;
  }
}
