package dev.mcpfusion.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.util.List;
import no.nav.security.mock.oauth2.token.KeyProvider;

/**
 * The test authorization server's signing key, which the test can rotate: its JWKS then publishes
 * the new key only, as an issuer that rotated (and retired the old key) would.
 */
final class RotatingKeys extends KeyProvider {
  private volatile RSAKey current;
  private int generation;

  RotatingKeys() {
    super(List.of(), JWSAlgorithm.RS256.getName());
    rotate();
  }

  /** A new key with a new key id. */
  synchronized RSAKey rotate() {
    generation++;
    current = newKey("key-" + generation);
    return current;
  }

  /** A fresh RSA key that the issuer does not publish. */
  static RSAKey newKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.RS256).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  RSAKey current() {
    return current;
  }

  @Override
  public JWK signingKey(String issuerId) {
    return current;
  }
}
