package dev.mcpfusion.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether an HTTP request may reach the MCP endpoint, from its headers alone, and who makes
 * it; a rejection is answered with a clean {@code 401} and {@code WWW-Authenticate: Bearer}.
 *
 * <p>Runs after the Origin and Host checks and before the body is read. Header names are lower
 * case; repeated headers are joined with {@code ", "}.
 *
 * <p>The simplest authenticator answers {@link #authenticate} and serves the
 * {@link dev.mcpfusion.core.Caller#local() local} caller. One that knows identities (OAuth access
 * tokens, API keys: the {@code fusion-auth} module) answers {@link #verify} with the caller, whose
 * scopes then decide what it sees and may call, and names the endpoint's
 * {@link #protectedResource() metadata}.
 */
@FunctionalInterface
public interface HttpAuthenticator {
  /** Whether the request with these headers is allowed. Must not throw; a throw counts as a rejection. */
  boolean authenticate(Map<String, String> headers);

  /**
   * Who makes the request with these headers, or why it is refused. By default the
   * {@link dev.mcpfusion.core.Caller#local() local} caller when {@link #authenticate} allows it.
   * Must not throw; a throw counts as a rejection.
   */
  default Authentication verify(Map<String, String> headers) {
    return authenticate(headers) ? Authentication.accepted(dev.mcpfusion.core.Caller.local())
        : Authentication.missing();
  }

  /**
   * The endpoint's protected resource metadata (RFC 9728), served at the well-known paths and named
   * by every {@code 401}; {@code null} (the default) for none.
   */
  default ProtectedResource protectedResource() {
    return null;
  }

  /** Accepts exactly {@code Authorization: Bearer <token>} (compared in constant time). */
  static HttpAuthenticator bearer(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isBlank()) {
      throw new IllegalArgumentException("A bearer token must not be blank.");
    }
    byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    return headers -> {
      String sent = headers.get("authorization");
      return sent != null
          && MessageDigest.isEqual(expected, sent.getBytes(StandardCharsets.UTF_8));
    };
  }
}
