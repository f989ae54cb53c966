package dev.mcpfusion.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Reading credentials out of headers and claims; hashing them for lookups. */
final class Tokens {
  private Tokens() {}

  /**
   * The bearer token of {@code Authorization: Bearer <token>} (the scheme in any case), or
   * {@code null} when there is none. Other schemes, and a header with several credentials, give
   * {@code null} too.
   */
  static String bearer(Map<String, String> headers) {
    String value = headers.get("authorization");
    if (value == null || value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String token = value.substring(7).trim();
    return token.isEmpty() || token.indexOf(' ') >= 0 || token.indexOf(',') >= 0 ? null : token;
  }

  /** Lower-case hex SHA-256 of {@code text} (UTF-8). */
  static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK has no SHA-256", e);
    }
  }

  /**
   * The scopes of a token's claims: {@code scope} (RFC 8693/9068: one space-separated string) or
   * {@code scp} (a string or a list, as some issuers write it).
   */
  static List<String> scopes(Map<String, Object> claims) {
    List<String> scopes = new ArrayList<>();
    for (String name : List.of("scope", "scp")) {
      Object value = claims.get(name);
      if (value instanceof String text) {
        for (String s : text.trim().split("\\s+")) {
          if (!s.isEmpty()) {
            scopes.add(s);
          }
        }
      } else if (value instanceof Collection<?> list) {
        for (Object s : list) {
          if (s instanceof String text && !text.isBlank()) {
            scopes.add(text);
          }
        }
      }
    }
    return scopes;
  }

  /** The OAuth client of a token's claims: {@code client_id}, else {@code azp}; or {@code null}. */
  static String clientId(Map<String, Object> claims) {
    Object id = claims.get("client_id");
    if (id instanceof String s && !s.isBlank()) {
      return s;
    }
    Object azp = claims.get("azp");
    return azp instanceof String s && !s.isBlank() ? s : null;
  }
}
