package dev.mcpfusion.auth;

import dev.mcpfusion.core.Caller;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Opaque access tokens checked by OAuth 2.0 Token Introspection (RFC 7662): the authorization
 * server says whether the token is {@code active} and whom it was issued to. An active token must
 * name this server's resource URI in {@code aud} and, when the answer has {@code iss}, the issuer.
 *
 * <p>Answers are cached by the token's SHA-256 (never the token itself) until the token expires,
 * at most {@link #maxAge}, and for at most {@link #maxEntries} tokens (the least recently used
 * goes first): a busy client costs one introspection per token, not one per call. Refusals are
 * not cached.
 */
final class Introspection {
  private final Supplier<URI> endpoint;
  private final String authorization;
  private final String audience;
  private final String issuer;
  private final HttpClient http;
  private final Duration maxAge;
  private final int maxEntries;
  private final Map<String, Entry> cache;

  private record Entry(Caller caller, long expiresNanos) {}

  Introspection(Supplier<URI> endpoint, String clientId, String clientSecret, String audience,
      String issuer, HttpClient http, Duration maxAge, int maxEntries) {
    this.endpoint = endpoint;
    this.authorization = "Basic " + Base64.getEncoder().encodeToString(
        (form(clientId) + ":" + form(clientSecret)).getBytes(StandardCharsets.UTF_8));
    this.audience = audience;
    this.issuer = issuer;
    this.http = http;
    this.maxAge = maxAge;
    this.maxEntries = maxEntries;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
        return size() > Introspection.this.maxEntries;
      }
    };
  }

  /** How many answers are cached now. */
  synchronized int cached() {
    return cache.size();
  }

  /** The caller of an active token. */
  Caller verify(String token) throws Rejected {
    String key = Tokens.sha256(token);
    long now = System.nanoTime();
    synchronized (this) {
      Entry hit = cache.get(key);
      if (hit != null && hit.expiresNanos - now > 0) {
        return hit.caller;
      }
      if (hit != null) {
        cache.remove(key);
      }
    }
    URI at = endpoint.get();
    if (at == null) {
      throw new Rejected("the issuer's metadata names no introspection_endpoint");
    }
    Map<String, Object> answer;
    try {
      answer = IssuerMetadata.fetchJson(http, HttpRequest.newBuilder(at)
          .header("Authorization", authorization)
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(
              "token=" + form(token) + "&token_type_hint=access_token")));
    } catch (IOException | ParseException e) {
      throw new Rejected("introspection failed (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Rejected("interrupted during introspection");
    }
    if (answer == null) {
      throw new Rejected("the introspection endpoint refused the request");
    }
    if (!Boolean.TRUE.equals(answer.get("active"))) {
      throw new Rejected("inactive token");
    }
    if (!names(answer.get("aud"), audience)) {
      throw new Rejected("the token's audience is not " + audience);
    }
    if (issuer != null && answer.get("iss") != null && !issuer.equals(answer.get("iss"))) {
      throw new Rejected("the token's issuer is not " + issuer);
    }
    Object sub = answer.get("sub");
    Object username = answer.get("username");
    String subject = sub instanceof String s && !s.isBlank() ? s
        : username instanceof String u && !u.isBlank() ? u : Tokens.clientId(answer);
    if (subject == null) {
      throw new Rejected("the introspection answer names no subject");
    }
    Caller caller = Caller.of(subject, Tokens.clientId(answer), Tokens.scopes(answer), answer);
    long until = now + maxAge.toNanos();
    if (answer.get("exp") instanceof Number exp) {
      long left = exp.longValue() * 1000 - System.currentTimeMillis();
      if (left <= 0) {
        throw new Rejected("expired token");
      }
      until = Math.min(until, now + Duration.ofMillis(left).toNanos());
    }
    synchronized (this) {
      cache.put(key, new Entry(caller, until));
    }
    return caller;
  }

  private static boolean names(Object aud, String audience) {
    if (aud instanceof String s) {
      return s.equals(audience);
    }
    return aud instanceof Collection<?> list && list.contains(audience);
  }

  private static String form(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
