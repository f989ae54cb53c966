package dev.mcpfusion.gateway;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Codes;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies the delegation tokens a gateway mints at a handoff, on the specialist's side: any
 * connector can use it (it needs the gateway's key and its own upstream name). A token travels in
 * the call's {@code params._meta} under {@value #META_KEY}, or (an HTTP call) in the
 * {@value #HEADER} header; the gateway sends both.
 *
 * <pre>{@code
 * DelegationVerifier verifier = DelegationVerifier.of(key, "billing");
 * Optional<Delegation> handoff = verifier.verify(request);   // in a handler or middleware
 * }</pre>
 *
 * <p>A token is HMAC-SHA256-signed ({@code v1.<claims>.<signature>}, both base64url), lives 60
 * seconds by default, and is accepted once: its id is remembered until it expires, so the memory
 * of seen ids is bounded by the tokens minted in one lifetime. Every refusal is a {@code FORBIDDEN}
 * envelope that says why (malformed, forged, expired, for another target, replayed) and to hand off
 * again.
 */
public final class DelegationVerifier {
  /** The {@code params._meta} key of a delegation token. */
  public static final String META_KEY = "mcpfusion/delegation";
  /** The HTTP header of a delegation token. */
  public static final String HEADER = "Mcp-Delegation";
  /** The shortest key accepted: 256 bits, the size of HMAC-SHA256's output. */
  public static final int MIN_KEY_BYTES = 32;
  static final String ALGORITHM = "HmacSHA256";
  static final String VERSION = "v1";

  private final SecretKeySpec key;
  private final String audience;
  private final Clock clock;
  private final Map<String, Instant> seen = new ConcurrentHashMap<>();

  private DelegationVerifier(byte[] key, String audience, Clock clock) {
    this.key = new SecretKeySpec(checkKey(key), ALGORITHM);
    this.audience = Objects.requireNonNull(audience, "audience");
    this.clock = clock;
  }

  /**
   * A verifier of tokens addressed to {@code audience} (this connector's upstream name in the
   * gateway) and signed with {@code key}.
   *
   * @throws IllegalArgumentException when the key is shorter than {@value #MIN_KEY_BYTES} bytes
   */
  public static DelegationVerifier of(byte[] key, String audience) {
    return new DelegationVerifier(key, audience, Clock.systemUTC());
  }

  /** The same verifier reading the time from {@code clock} (tests). */
  public DelegationVerifier clock(Clock clock) {
    return new DelegationVerifier(key.getEncoded(), audience, clock);
  }

  /**
   * The delegation of {@code request}: its token from {@code _meta}, else from the header;
   * empty when it carries none.
   *
   * @throws FusionError {@code FORBIDDEN} when it carries a token that is not valid
   */
  public Optional<Delegation> verify(RequestContext request) {
    Object fromMeta = request.meta().get(META_KEY);
    String token = fromMeta instanceof String s ? s : request.header(HEADER).orElse(null);
    return token == null ? Optional.empty() : Optional.of(verify(token));
  }

  /**
   * The claims of {@code token}.
   *
   * @throws FusionError {@code FORBIDDEN} naming why the token is refused
   */
  public Delegation verify(String token) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3 || !VERSION.equals(parts[0])) {
      throw refused("The delegation token is malformed: expected v1.<claims>.<signature>.");
    }
    byte[] signature;
    Map<?, ?> claims;
    try {
      signature = Base64.getUrlDecoder().decode(parts[2]);
      Object parsed = Json.parse(new String(Base64.getUrlDecoder().decode(parts[1]),
          StandardCharsets.UTF_8));
      claims = parsed instanceof Map<?, ?> m ? m : null;
    } catch (IllegalArgumentException e) {
      throw refused("The delegation token is malformed: its parts are not base64url JSON.");
    }
    if (!MessageDigest.isEqual(sign(key, VERSION + "." + parts[1]), signature)) {
      throw refused("The delegation token's signature does not match: the gateway did not issue"
          + " it, or it was altered.");
    }
    if (claims == null || !(claims.get("exp") instanceof Number exp)
        || !(claims.get("jti") instanceof String id) || !(claims.get("aud") instanceof String target)
        || !(claims.get("iss") instanceof String issuer)
        || !(claims.get("sub") instanceof String subject)) {
      throw refused("The delegation token is malformed: a claim is missing.");
    }
    Instant now = clock.instant();
    Instant expiresAt = Instant.ofEpochMilli(exp.longValue());
    if (!now.isBefore(expiresAt)) {
      long late = Math.max(1, (now.toEpochMilli() - expiresAt.toEpochMilli() + 999) / 1000);
      throw refused("The delegation token expired " + Durations.words(java.time.Duration.ofSeconds(late))
          + " ago.");
    }
    if (!audience.equals(target)) {
      throw refused("The delegation token is for " + target + ", not " + audience + ".");
    }
    forgetExpired(now);
    if (seen.putIfAbsent(id, expiresAt) != null) {
      throw refused("The delegation token was already used: each token is accepted once.");
    }
    Map<String, String> state = new LinkedHashMap<>();
    if (claims.get("state") instanceof Map<?, ?> carried) {
      carried.forEach((k, v) -> state.put(String.valueOf(k), String.valueOf(v)));
    }
    return new Delegation(issuer, subject, target, expiresAt, id, state,
        claims.get("traceparent") instanceof String t ? t : null);
  }

  private void forgetExpired(Instant now) {
    for (Iterator<Instant> expiries = seen.values().iterator(); expiries.hasNext(); ) {
      if (!now.isBefore(expiries.next())) {
        expiries.remove();
      }
    }
  }

  /** How many token ids are remembered now (bounded by the tokens of one lifetime). */
  int remembered() {
    return seen.size();
  }

  static byte[] sign(SecretKeySpec key, String content) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(content.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  static byte[] checkKey(byte[] key) {
    if (key == null || key.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException("a delegation key needs at least " + MIN_KEY_BYTES
          + " bytes (256 bits) but has " + (key == null ? 0 : key.length)
          + "; generate one with: openssl rand -base64 32");
    }
    return key.clone();
  }

  private static FusionError refused(String message) {
    return FusionError.of(Codes.FORBIDDEN, message)
        .recovery("Do not retry with this token. Go back to the gateway and hand off again to get"
            + " a new one.");
  }
}
