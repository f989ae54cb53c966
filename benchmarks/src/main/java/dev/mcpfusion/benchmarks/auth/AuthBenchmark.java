package dev.mcpfusion.benchmarks.auth;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.mcpfusion.auth.OAuth;
import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.wire.Reply;
import dev.mcpfusion.http.Authentication;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What checking a JWT access token costs a call, side by side in one run: the billing sample's
 * {@code get_invoice} through the edge with no authentication (the local caller), and the same call
 * after fusion-auth's authenticator checked an RS256 token (signature, {@code iss}, {@code aud},
 * {@code exp}/{@code nbf}) against the issuer's key set, which a local HTTP server serves once: the
 * key set is cached after the first call, as it is in production. {@code verifyOnly} is the check
 * alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
public class AuthBenchmark {
  private static final String RESOURCE = "https://mcp.example.test/mcp";

  private HttpServer issuerServer;
  private FusionServer server;
  private HttpAuthenticator auth;
  private Map<String, String> headers;
  private final Map<String, Object> arguments = Map.of("id", "INV-0042");

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
    issuerServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    String issuer = "http://127.0.0.1:" + issuerServer.getAddress().getPort() + "/idp";
    byte[] metadata = ("{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/jwks\"}")
        .getBytes(StandardCharsets.UTF_8);
    byte[] jwks = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    issuerServer.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      byte[] body = path.endsWith("/jwks") ? jwks
          : path.equals("/.well-known/oauth-authorization-server/idp") ? metadata : null;
      exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
      if (body != null) {
        exchange.getResponseBody().write(body);
      }
      exchange.close();
    });
    issuerServer.start();
    auth = OAuth.issuer(issuer).resource(RESOURCE).authenticator();
    Instant now = Instant.now();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
        .type(JOSEObjectType.JWT).build(), new JWTClaimsSet.Builder().issuer(issuer).subject("alice")
        .audience(RESOURCE).issueTime(Date.from(now)).notBeforeTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(3600))).claim("scope", "invoices:read").build());
    jwt.sign(new RSASSASigner(key));
    headers = Map.of("authorization", "Bearer " + jwt.serialize());
    server = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT).build();
    if (!withJwt().equals(withoutAuth()) || !verifyOnly().isAccepted()) {
      throw new IllegalStateException("the token was refused, or the answers differ");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    issuerServer.stop(0);
  }

  @Benchmark
  public Reply withoutAuth() {
    return server.edge().call("billing_get_invoice", arguments, RequestContext.empty());
  }

  @Benchmark
  public Reply withJwt() {
    Authentication verdict = auth.verify(headers);
    Caller caller = verdict.caller();
    return server.edge().call("billing_get_invoice", arguments,
        RequestContext.of(null, null, null, null, null, caller));
  }

  @Benchmark
  public Authentication verifyOnly() {
    return auth.verify(headers);
  }
}
