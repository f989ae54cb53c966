package dev.mcpfusion.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The bad bearer tokens a resource server must refuse with {@code 401 invalid_token}, by defect,
 * made against one issuer, resource and issuer key: each differs from {@link #valid()} only in its
 * defect, so a test that shows {@link #valid()} admitted shows each refusal is for that defect.
 * Shared with the Spring Boot starter's tests (this module's test jar), which send the same set
 * through Spring.
 */
public final class HostileTokens {
  private final String issuer;
  private final String resource;
  private final RSAKey issuerKey;
  private final String scope;

  /**
   * Tokens for {@code resource}, as {@code issuer} (which signs with {@code issuerKey}) would
   * issue them with {@code scope}.
   */
  public HostileTokens(String issuer, String resource, RSAKey issuerKey, String scope) {
    this.issuer = issuer;
    this.resource = resource;
    this.issuerKey = issuerKey;
    this.scope = scope;
  }

  /** The claims of a valid token: alice, through client {@code hostile-cli}, for five minutes. */
  public JWTClaimsSet.Builder claims() {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder().issuer(issuer).subject("alice").audience(resource)
        .issueTime(Date.from(now)).notBeforeTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300))).jwtID(UUID.randomUUID().toString())
        .claim("client_id", "hostile-cli").claim("scope", scope);
  }

  /** A token the server must admit: the control for every refusal. */
  public String valid() {
    return sign(claims().build(), issuerKey);
  }

  /** Every bad token, by defect, in a stable order. */
  public Map<String, String> all() {
    try {
      Instant now = Instant.now();
      Map<String, String> bad = new LinkedHashMap<>();
      bad.put("wrong audience", sign(claims().audience("https://other.example/mcp").build(), issuerKey));
      bad.put("wrong issuer", sign(claims().issuer("https://evil.example").build(), issuerKey));
      // Issued and valid ten minutes ago, expired two minutes ago: only the expiry is wrong.
      bad.put("expired", sign(claims().issueTime(Date.from(now.minusSeconds(600)))
          .notBeforeTime(Date.from(now.minusSeconds(600))).expirationTime(Date.from(now.minusSeconds(120)))
          .build(), issuerKey));
      bad.put("not yet valid", sign(claims().notBeforeTime(Date.from(now.plusSeconds(600))).build(), issuerKey));
      bad.put("bad signature", sign(claims().build(), RotatingKeys.newKey(issuerKey.getKeyID())));
      bad.put("alg none", new PlainJWT(claims().build()).serialize());
      // The classic confusion attack: HS256 with the issuer's public key as the shared secret.
      SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256)
          .keyID(issuerKey.getKeyID()).build(), claims().build());
      hmac.sign(new MACSigner(issuerKey.toPublicJWK().toRSAPublicKey().getEncoded()));
      bad.put("HMAC signed with the public key", hmac.serialize());
      bad.put("unknown kid", sign(claims().build(), RotatingKeys.newKey("nobody")));
      bad.put("not a JWT", "opaque-" + UUID.randomUUID());
      bad.put("tampered payload", tamper(valid()));
      bad.put("64 kB token", valid() + "A".repeat(64 * 1024));
      return bad;
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What would betray that {@code token} was echoed: the token, each dot-separated part longer
   * than 8 characters, and the first and last 24 characters of each longer part (a truncated echo).
   */
  public static List<String> fragments(String token) {
    List<String> fragments = new ArrayList<>();
    fragments.add(token);
    for (String part : token.split("\\.")) {
      if (part.length() > 8) {
        fragments.add(part);
      }
      if (part.length() > 24) {
        fragments.add(part.substring(0, 24));
        fragments.add(part.substring(part.length() - 24));
      }
    }
    return fragments;
  }

  /** {@code claims} signed RS256 with {@code key}, under its key id. */
  public static String sign(JWTClaimsSet claims, RSAKey key) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
          .type(JOSEObjectType.JWT).build(), claims);
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code jwt} with its subject changed to admin and its signature kept. */
  static String tamper(String jwt) {
    String[] parts = jwt.split("\\.");
    String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
        .replace("alice", "admin");
    return parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
  }
}
