package dev.mcpfusion.http;

import dev.mcpfusion.core.Caller;
import java.time.Duration;
import java.util.Objects;

/**
 * What an {@link HttpAuthenticator} decided about one request: the {@link Caller} it vouches for,
 * or a rejection answered with {@code 401} and {@code WWW-Authenticate: Bearer}, with
 * {@code error="invalid_token"} when a credential was sent but is not good (RFC 6750 §3.1), or
 * {@link #unavailable(Duration) unavailable}: the credential could not be checked because the
 * authority that vouches for it did not answer, which is no fault of the client's ({@code 503}
 * with {@code Retry-After}).
 *
 * <p>A rejection carries no detail about why the credential failed: the client learns only that it
 * must get another one (nothing about the token, which is never echoed); the authenticator logs the
 * reason below ERROR.
 */
public final class Authentication {
  private static final Authentication MISSING = new Authentication(null, false, 0);
  private static final Authentication INVALID = new Authentication(null, true, 0);

  private final Caller caller;
  private final boolean invalidToken;
  private final long retryAfterSeconds;

  private Authentication(Caller caller, boolean invalidToken, long retryAfterSeconds) {
    this.caller = caller;
    this.invalidToken = invalidToken;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The request is allowed, made by {@code caller}. */
  public static Authentication accepted(Caller caller) {
    return new Authentication(Objects.requireNonNull(caller, "caller"), false, 0);
  }

  /**
   * The credential could not be checked: the issuer's metadata, key set or introspection endpoint
   * did not answer. Answered {@code 503} with {@code Retry-After} (whole seconds, at least 1)
   * rather than {@code 401}: a client told its valid token is invalid would throw it away.
   */
  public static Authentication unavailable(Duration retryAfter) {
    return new Authentication(null, false, Math.max(1, (retryAfter.toMillis() + 999) / 1000));
  }

  /** The request carries no credential this authenticator reads (401 without an error code). */
  public static Authentication missing() {
    return MISSING;
  }

  /** The request carries a credential that is not good: expired, forged, for another audience… */
  public static Authentication invalid() {
    return INVALID;
  }

  /** Whether the request may reach the endpoint. */
  public boolean isAccepted() {
    return caller != null;
  }

  /** The caller of an accepted request; {@code null} for a rejection. */
  public Caller caller() {
    return caller;
  }

  /** Whether the credential could not be checked now ({@link #unavailable(Duration)}). */
  public boolean isUnavailable() {
    return retryAfterSeconds > 0;
  }

  /** The seconds to wait before retrying an {@linkplain #isUnavailable() unavailable} check; 0 otherwise. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** Whether a rejection is for a bad credential ({@code error="invalid_token"}), not a missing one. */
  public boolean invalidToken() {
    return invalidToken;
  }
}
