package dev.mcpfusion.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether an HTTP request may reach the MCP endpoint, from its headers alone; a rejection
 * is answered with a clean {@code 401} and {@code WWW-Authenticate: Bearer}.
 *
 * <p>Runs after the Origin and Host checks and before the body is read. Header names are lower
 * case; repeated headers are joined with {@code ", "}.
 */
@FunctionalInterface
public interface HttpAuthenticator {
  /** Whether the request with these headers is allowed. Must not throw; a throw counts as a rejection. */
  boolean authenticate(Map<String, String> headers);

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
