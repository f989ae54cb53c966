package dev.mcpfusion.auth;

import java.time.Duration;

/**
 * A credential could not be checked because the issuer did not answer (its metadata, key set or
 * introspection endpoint): answered {@code 503} with {@code Retry-After}, not {@code 401}, since a
 * valid token is no fault of the client's. Without a stack trace, and never carries the credential.
 */
final class Unavailable extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * The hint of an introspection endpoint that did not answer and did not say when to come back
   * (its own {@code Retry-After} on a 5xx or 429 is passed on). Nothing here holds a retry back
   * (failures to ask are not cached: the next request asks again), so no time follows from the
   * cause; this paces clients, sparing an endpoint in trouble a retry per request. The issuer's
   * metadata and key set have real windows, and their hints are what remains of them
   * ({@link IssuerMetadata#RETRY}, {@link JwtAccessTokens#untilRefetch}).
   */
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
