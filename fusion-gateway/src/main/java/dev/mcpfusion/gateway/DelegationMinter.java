package dev.mcpfusion.gateway;

import dev.mcpfusion.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;

/** Mints the delegation tokens {@link DelegationVerifier} accepts. */
final class DelegationMinter {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;
  private final String issuer;
  private final Duration ttl;
  private final Clock clock;

  DelegationMinter(byte[] key, String issuer, Duration ttl, Clock clock) {
    this.key = new SecretKeySpec(DelegationVerifier.checkKey(key), DelegationVerifier.ALGORITHM);
    this.issuer = issuer;
    this.ttl = ttl;
    this.clock = clock;
  }

  Duration ttl() {
    return ttl;
  }

  /** A token for {@code target}, acting for {@code subject}, carrying {@code state} and the trace. */
  String mint(String subject, String target, Map<String, String> state, String traceparent) {
    Instant now = clock.instant();
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("iss", issuer);
    claims.put("sub", subject);
    claims.put("aud", target);
    claims.put("iat", now.toEpochMilli());
    claims.put("exp", now.plus(ttl).toEpochMilli());
    claims.put("jti", HexFormat.of().formatHex(id));
    claims.put("state", new LinkedHashMap<>(state));
    if (traceparent != null) {
      claims.put("traceparent", traceparent);
    }
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String body = b64.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8));
    String signed = DelegationVerifier.VERSION + "." + body;
    return signed + "." + b64.encodeToString(DelegationVerifier.sign(key, signed));
  }
}
