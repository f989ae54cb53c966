package dev.mcpfusion.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.mcpfusion.core.Caller;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.Set;

/**
 * JWT access tokens (RFC 9068) checked with nimbus-jose-jwt: the signature against the issuer's key
 * set, with asymmetric algorithms only (RSA, RSA-PSS, ECDSA, EdDSA: never {@code none}, never an
 * HMAC, whose "key" would be the public key anyone can fetch); {@code iss} exactly the issuer,
 * {@code aud} containing this server's resource URI (RFC 8707), {@code exp} and {@code nbf} with a
 * small clock skew, {@code sub} present; {@code typ} absent, {@code JWT} or {@code at+jwt}.
 *
 * <p>The key set is cached (5 minutes) and refetched when a token names a key id it does not hold
 * (the issuer rotated its keys), at most once per rate-limit interval, so a flood of tokens with
 * made-up key ids cannot make this server hammer the issuer.
 */
final class JwtAccessTokens {
  /** The asymmetric JWS algorithms accepted. */
  static final Set<JWSAlgorithm> ALGORITHMS = Set.of(
      JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
      JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512,
      JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512,
      JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);
  private static final long CACHE_TTL_MS = Duration.ofMinutes(5).toMillis();
  private static final long REFRESH_TIMEOUT_MS = Duration.ofSeconds(5).toMillis();

  private final String issuer;
  private final String audience;
  private final int skewSeconds;
  private final long rateLimitMs;
  private final KeySetLocation jwksUri;

  /** Where the key set is: asked on first use, it may need the issuer's metadata. */
  @FunctionalInterface
  interface KeySetLocation {
    /** The key set's URL, or {@code null} when the issuer names none. */
    URI get() throws Unavailable;
  }
  private volatile DefaultJWTProcessor<SecurityContext> processor;
  /**
   * Whether a key set fetch failed (no answer) since the last token checked good: a rate-limited
   * retry is then no verdict on the token.
   */
  private volatile boolean fetchFailed;
  /** When the last key set fetch failed ({@link System#nanoTime}): the rate limit runs from it. */
  private volatile long fetchFailedAtNanos;

  /**
   * @param jwksUri where the key set is
   */
  JwtAccessTokens(String issuer, String audience, Duration skew, Duration rateLimit,
      KeySetLocation jwksUri) {
    this.issuer = issuer;
    this.audience = audience;
    this.skewSeconds = (int) skew.toSeconds();
    this.rateLimitMs = rateLimit.toMillis();
    this.jwksUri = jwksUri;
  }

  /** Whether {@code token} has the shape of a JWS (three base64url parts): else it is not ours. */
  static boolean looksLikeJwt(String token) {
    int dots = 0;
    for (int i = 0; i < token.length(); i++) {
      if (token.charAt(i) == '.') {
        dots++;
      }
    }
    return dots == 2;
  }

  /**
   * The caller of a valid token.
   *
   * @throws Unavailable when the key set is needed and cannot be fetched (a token naming a key
   *     the cached set lacks while refetches are rate-limited is {@link Rejected}: it may be made up)
   */
  Caller verify(String token) throws Rejected, Unavailable {
    JWTClaimsSet claims;
    try {
      claims = processor().process(token, null);
    } catch (ParseException e) {
      throw new Rejected("not a JWT: " + e.getMessage());
    } catch (RateLimitReachedException e) {
      // Refetches are rate-limited: after a failed fetch the set is still unknown (the issuer is
      // down); after a good one, the token names a key the issuer does not publish.
      if (fetchFailed) {
        throw new Unavailable("the issuer's key set cannot be fetched (rate-limited retry)",
            untilRefetch(System.nanoTime()));
      }
      throw new Rejected("a key id not in the key set, which was refetched moments ago");
    } catch (KeySourceException e) {
      long now = System.nanoTime();
      fetchFailedAtNanos = now;
      fetchFailed = true;
      throw new Unavailable("the issuer's key set cannot be fetched", untilRefetch(now));
    } catch (BadJOSEException | JOSEException e) {
      throw new Rejected(e.getMessage());
    }
    fetchFailed = false;
    return Caller.of(claims.getSubject(), Tokens.clientId(claims.getClaims()),
        Tokens.scopes(claims.getClaims()), claims.toJSONObject());
  }

  /**
   * How long after {@code now} a retry is sure to make this server ask the issuer for its key set
   * again: refetches are rate-limited to one window of {@code jwksRateLimit}, which began at or
   * before the last failed fetch, so a retry at its end is never refused unasked (a retry within it
   * may be, and would be another 503). At least a second, the header's unit.
   */
  Duration untilRefetch(long now) {
    long left = fetchFailedAtNanos + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(rateLimitMs) - now;
    return Duration.ofNanos(Math.max(left, java.util.concurrent.TimeUnit.SECONDS.toNanos(1)));
  }

  private DefaultJWTProcessor<SecurityContext> processor() throws Rejected, Unavailable {
    DefaultJWTProcessor<SecurityContext> p = processor;
    if (p != null) {
      return p;
    }
    synchronized (this) {
      if (processor == null) {
        processor = build();
      }
      return processor;
    }
  }

  private DefaultJWTProcessor<SecurityContext> build() throws Rejected, Unavailable {
    URI keys = jwksUri.get();
    if (keys == null) {
      throw new Rejected("the issuer's metadata names no jwks_uri");
    }
    JWKSource<SecurityContext> source;
    try {
      source = JWKSourceBuilder.<SecurityContext>create(keys.toURL())
          .cache(CACHE_TTL_MS, REFRESH_TIMEOUT_MS)
          .rateLimited(rateLimitMs)
          .retrying(false)
          .refreshAheadCache(false)
          .build();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new Rejected("the jwks_uri is not a URL");
    }
    DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
    p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(
        new JOSEObjectType("at+jwt"), JOSEObjectType.JWT, null));
    p.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, source));
    DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
        Set.of(audience), new JWTClaimsSet.Builder().issuer(issuer).build(),
        Set.of("sub", "exp"), null);
    claims.setMaxClockSkew(skewSeconds);
    p.setJWTClaimsSetVerifier(claims);
    return p;
  }
}
