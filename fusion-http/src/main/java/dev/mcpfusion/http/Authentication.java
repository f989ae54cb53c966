package dev.mcpfusion.http;

import dev.mcpfusion.core.Caller;
import java.util.Objects;

/**
 * What an {@link HttpAuthenticator} decided about one request: the {@link Caller} it vouches for,
 * or a rejection answered with {@code 401} and {@code WWW-Authenticate: Bearer}, with
 * {@code error="invalid_token"} when a credential was sent but is not good (RFC 6750 §3.1).
 *
 * <p>A rejection carries no detail about why the credential failed: the client learns only that it
 * must get another one (nothing about the token, which is never echoed); the authenticator logs the
 * reason below ERROR.
 */
public final class Authentication {
  private static final Authentication MISSING = new Authentication(null, false);
  private static final Authentication INVALID = new Authentication(null, true);

  private final Caller caller;
  private final boolean invalidToken;

  private Authentication(Caller caller, boolean invalidToken) {
    this.caller = caller;
    this.invalidToken = invalidToken;
  }

  /** The request is allowed, made by {@code caller}. */
  public static Authentication accepted(Caller caller) {
    return new Authentication(Objects.requireNonNull(caller, "caller"), false);
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

  /** Whether a rejection is for a bad credential ({@code error="invalid_token"}), not a missing one. */
  public boolean invalidToken() {
    return invalidToken;
  }
}
