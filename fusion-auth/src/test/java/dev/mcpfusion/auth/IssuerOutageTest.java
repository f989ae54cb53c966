package dev.mcpfusion.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The issuer stops answering (a real authorization server, stopped in the test): a token that
 * cannot be checked is {@code 503} with {@code Retry-After}, never {@code 401} — a client told its
 * good token is invalid would throw it away — while keys fetched before the outage keep working.
 */
class IssuerOutageTest {
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
      + "\"name\":\"ledger_whoami\",\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
      + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

  MockOAuth2Server idp;
  FusionHttpServer mcp;
  String resource;

  @AfterEach
  void stop() {
    if (mcp != null) {
      mcp.close();
    }
    if (idp != null) {
      idp.shutdown();
    }
  }

  private String serve(OAuth oauth) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    resource = "http://127.0.0.1:" + port + "/mcp";
    mcp = FusionHttp.serve(FusionServer.builder("ledger", "1.0.0").register(new LedgerTools()).build(),
        HttpOptions.port(port).auth(oauth.resource(resource).authenticator()));
    return resource;
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static String sign(String issuer, String audience, RSAKey key) throws Exception {
    Instant now = Instant.now();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
        .type(JOSEObjectType.JWT).build(), new JWTClaimsSet.Builder().issuer(issuer).subject("alice")
        .audience(audience).issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)))
        .jwtID(UUID.randomUUID().toString()).claim("scope", "ledger:read").build());
    jwt.sign(new RSASSASigner(key));
    return jwt.serialize();
  }

  private HttpResponse<String> post(String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(resource))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "ledger_whoami")
        .POST(HttpRequest.BodyPublishers.ofString(CALL));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Asserts a 503 that neither challenges nor echoes the token; its Retry-After, in seconds. */
  private static long assertUnavailable(HttpResponse<String> response, String token) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
    long seconds = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
    assertThat(seconds).isPositive();
    assertThat(response.headers().firstValue("WWW-Authenticate")).isEmpty();
    assertThat(response.body()).contains("retry in " + seconds + " ").doesNotContain("Exception")
        .doesNotContain(token.substring(token.lastIndexOf('.') + 1));
    return seconds;
  }

  @Test
  void anIssuerThatDoesNotAnswerIs503WithRetryAfterNot401() throws Exception {
    RotatingKeys keys = new RotatingKeys();
    idp = new MockOAuth2Server(new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys)));
    idp.start(InetAddress.getLoopbackAddress(), 0);
    String issuer = idp.issuerUrl("idp").toString();
    serve(OAuth.issuer(issuer));
    idp.shutdown();
    idp = null;

    String token = sign(issuer, resource, keys.current());
    // The metadata is asked again no sooner than IssuerMetadata.RETRY after a failure: the hint is
    // what remains of that window.
    long first = assertUnavailable(post(token), token);
    assertThat(first).isBetween(1L, IssuerMetadata.RETRY.toSeconds());
    // Within the retry window the metadata is not asked again: still 503, still not 401.
    assertThat(assertUnavailable(post(token), token)).isBetween(1L, first);
    // No token at all needs no issuer: that is the client's to fix.
    assertThat(post(null).statusCode()).isEqualTo(401);
  }

  @Test
  void anUnreachableKeySetIs503() throws Exception {
    RSAKey key = RotatingKeys.newKey("k1");
    String issuer = "http://127.0.0.1:" + freePort() + "/idp";
    serve(OAuth.issuer(issuer).jwksUri("http://127.0.0.1:" + freePort() + "/jwks"));
    String token = sign(issuer, resource, key);
    // Refetches are rate-limited (30 s by default): the retries that are not even attempted are no
    // verdict on the token either, and each is told what remains of the limit's window.
    long previous = 30;
    for (int i = 0; i < 4; i++) {
      long seconds = assertUnavailable(post(token), token);
      assertThat(seconds).isBetween(1L, previous);
      previous = seconds;
    }
  }

  @Test
  void theRetryAfterOfAnUnreachableKeySetIsWhatRemainsOfItsRateLimit() throws Exception {
    RSAKey key = RotatingKeys.newKey("k1");
    String issuer = "http://127.0.0.1:" + freePort() + "/idp";
    String jwks = "http://127.0.0.1:" + freePort() + "/jwks";
    // Two minutes between fetches: a retry sooner is refused unasked, so the hint is the rest of
    // the two minutes (more than one of them unless this machine stalls for a minute)...
    serve(OAuth.issuer(issuer).jwksUri(jwks).jwksRateLimit(Duration.ofMinutes(2)));
    String token = sign(issuer, resource, key);
    assertThat(assertUnavailable(post(token), token)).isBetween(61L, 120L);
    mcp.close();
    // ...and with no limit the next request asks again: a second, the header's least.
    serve(OAuth.issuer(issuer).jwksUri(jwks).jwksRateLimit(Duration.ZERO));
    token = sign(issuer, resource, key);
    assertThat(assertUnavailable(post(token), token)).isEqualTo(1L);
    assertThat(assertUnavailable(post(token), token)).isEqualTo(1L);
  }

  @Test
  void keysFetchedBeforeTheOutageKeepWorking() throws Exception {
    RotatingKeys keys = new RotatingKeys();
    idp = new MockOAuth2Server(new OAuth2Config(false, null, null, false, new OAuth2TokenProvider(keys)));
    idp.start(InetAddress.getLoopbackAddress(), 0);
    String issuer = idp.issuerUrl("idp").toString();
    serve(OAuth.issuer(issuer));
    String token = sign(issuer, resource, keys.current());
    assertThat(post(token).statusCode()).isEqualTo(200);

    idp.shutdown();
    idp = null;
    HttpResponse<String> during = post(sign(issuer, resource, keys.current()));
    assertThat(during.statusCode()).as(during.body()).isEqualTo(200);
    assertThat(during.body()).contains("subject=alice");
  }
}
