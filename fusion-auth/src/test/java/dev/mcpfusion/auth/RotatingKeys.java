package dev.mcpfusion.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.net.InetAddress;
import java.util.List;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;

/**
 * The test authorization server's signing key, which the test can rotate: its JWKS then publishes
 * the new key only, as an issuer that rotated (and retired the old key) would. Public for the
 * Spring Boot starter's tests, which sign {@link HostileTokens} with the same issuer key.
 */
public final class RotatingKeys extends KeyProvider {
  private volatile RSAKey current;
  private int generation;

  public RotatingKeys() {
    super(List.of(), JWSAlgorithm.RS256.getName());
    rotate();
  }

  /** A new key with a new key id. */
  public synchronized RSAKey rotate() {
    generation++;
    current = newKey("key-" + generation);
    return current;
  }

  /** A fresh RSA key that the issuer does not publish. */
  public static RSAKey newKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.RS256).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The key the issuer signs with and publishes now. */
  public RSAKey current() {
    return current;
  }

  /** A real authorization server on an ephemeral loopback port, signing with these keys. */
  public MockOAuth2Server startIssuer() {
    MockOAuth2Server server = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
        new OAuth2TokenProvider(this)));
    server.start(InetAddress.getLoopbackAddress(), 0);
    return server;
  }

  @Override
  public JWK signingKey(String issuerId) {
    return current;
  }
}
