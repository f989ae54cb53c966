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

/**
 * Opaque access tokens checked by OAuth 2.0 Token Introspection (RFC 7662): the authorization
 * server says whether the token is {@code active} and whom it was issued to. An active token must
 * name this server's resource URI in {@code aud} and, when the answer has {@code iss}, the issuer.
 *
 * <p>Answers are cached by the token's SHA-256 (never the token itself) until the token expires,
 * at most {@link #maxAge}, and for at most {@link #maxEntries} tokens (the least recently used
 * goes first): a busy client costs one introspection per token, not one per call. Refusals
 * (inactive, another audience, expired, no subject) are cached too, in a cache of their own
 * (bounded alike, so a flood of bad tokens cannot evict good ones), for {@link #REFUSED_AGE} at
 * most: a client repeating a bad token does not make this server ask each time, and a token the
 * server has just activated is accepted moments later. A failure to ask is never cached.
 */
final class Introspection {
  private final JwtAccessTokens.KeySetLocation endpoint;
  private final String authorization;
  private final String audience;
  private final String issuer;
  private final HttpClient http;
  private final Duration maxAge;
  private final int maxEntries;
  private final Map<String, Entry> cache;
  private final Map<String, Entry> refused;

  /** How long a refusal is kept, at most (and never longer than {@link #maxAge}). */
  static final Duration REFUSED_AGE = Duration.ofSeconds(10);

  /** A cached answer: the caller of an active token, or {@code null} and why it was refused. */
  private record Entry(Caller caller, String reason, long expiresNanos) {}

  Introspection(JwtAccessTokens.KeySetLocation endpoint, String clientId, String clientSecret, String audience,
      String issuer, HttpClient http, Duration maxAge, int maxEntries) {
    this.endpoint = endpoint;
    this.authorization = "Basic " + Base64.getEncoder().encodeToString(
        (form(clientId) + ":" + form(clientSecret)).getBytes(StandardCharsets.UTF_8));
    this.audience = audience;
    this.issuer = issuer;
    this.http = http;
    this.maxAge = maxAge;
    this.maxEntries = maxEntries;
    this.cache = lru(maxEntries);
    this.refused = lru(maxEntries);
  }

  private static Map<String, Entry> lru(int maxEntries) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
        return size() > maxEntries;
      }
    };
  }

  /** How many answers are cached now. */
  synchronized int cached() {
    return cache.size();
  }

  /**
   * The caller of an active token.
   *
   * @throws Unavailable when the endpoint (or the metadata naming it) does not answer
   */
  Caller verify(String token) throws Rejected, Unavailable {
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
      Entry no = refused.get(key);
      if (no != null && no.expiresNanos - now > 0) {
        throw new Rejected(no.reason + " (cached)");
      }
      if (no != null) {
        refused.remove(key);
      }
    }
    try {
      return ask(token, key, now);
    } catch (Rejected e) {
      long age = Math.min(maxAge.toNanos(), REFUSED_AGE.toNanos());
      if (age > 0) {
        synchronized (this) {
          refused.put(key, new Entry(null, e.getMessage(), now + age));
        }
      }
      throw e;
    }
  }

  /** Asks the endpoint about {@code token}; caches an active answer. */
  private Caller ask(String token, String key, long now) throws Rejected, Unavailable {
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
    } catch (IOException e) {
      throw new Unavailable("the introspection endpoint does not answer",
          IssuerMetadata.Busy.retryAfter(e, Unavailable.RETRY_AFTER));
    } catch (ParseException e) {
      throw new Rejected("introspection failed (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("interrupted during introspection", Unavailable.RETRY_AFTER);
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
      cache.put(key, new Entry(caller, null, until));
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
