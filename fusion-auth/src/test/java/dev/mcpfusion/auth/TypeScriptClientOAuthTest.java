package dev.mcpfusion.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The official MCP TypeScript SDK client ({@code @modelcontextprotocol/client}, in
 * {@code clients/}) against a protected connector: it finds the protected resource metadata from
 * the {@code 401}, gets a token from a real authorization server with its client-credentials
 * provider (naming this server as the resource), calls a tool, steps up on
 * {@code 403 insufficient_scope} when the server grants more, and reports the refusal when it does
 * not. The script is {@code clients/test/oauth-client-credentials.mjs}; this test starts both
 * servers and reads its verdicts.
 *
 * <p>Needs {@code clients/node_modules} (after {@code npm install} there): named by
 * {@code -Dfusion.clients=/path/to/clients}, else {@code ../clients} when installed; skipped
 * without it. {@code .ci/run} installs the clients first, names them, and fails if this test did
 * not run and pass.
 */
class TypeScriptClientOAuthTest {
  /** The scopes each client may be granted; a client gets what it asks for within these. */
  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "ledger-writer", Set.of("ledger:read", "ledger:write"),
      "ledger-reader", Set.of("ledger:read"));
  /** ledger-stepper's first token has ledger:read only, its later ones ledger:write too (step-up). */
  private static final Set<String> STEPPER_LATER = Set.of("ledger:read", "ledger:write");

  @Test
  void theOfficialClientGetsATokenCallsAToolAndHandlesInsufficientScope() throws Exception {
    Path clients = clients();
    Assumptions.assumeTrue(clients != null,
        "no installed clients/ (npm install there, or -Dfusion.clients=/path/to/clients)");
    MockOAuth2Server idp = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
        new OAuth2TokenProvider(), Set.of(new ScopedClients())));
    idp.start(InetAddress.getLoopbackAddress(), 0);
    FusionHttpServer mcp = null;
    try {
      String issuer = idp.issuerUrl("idp").toString();
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      String resource = "http://127.0.0.1:" + port + "/mcp";
      mcp = FusionHttp.serve(FusionServer.builder("ledger", "1.0.0").register(new LedgerTools()).build(),
          HttpOptions.port(port).auth(OAuth.issuer(issuer).resource(resource)
              .scopes("ledger:read", "ledger:write").authenticator()));

      List<String> lines = runNode(clients, resource, issuer);

      assertThat(lines).as("the script's verdicts").noneMatch(l -> l.startsWith("fail "));
      assertThat(lines).anyMatch(l -> l.startsWith("ok no-token-401 authorization_servers=" + issuer));
      assertThat(lines).anyMatch(l -> l.startsWith("ok no-provider-refused "));
      assertThat(lines).anyMatch(l -> l.startsWith("ok client-credentials-call ")
          && l.contains("subject=ledger-writer client=ledger-writer"));
      assertThat(lines).anyMatch(l -> l.startsWith("ok step-up-granted token requests=2 ")
          && l.contains("posted coffee by ledger-stepper"));
      assertThat(lines).anyMatch(l -> l.startsWith("ok step-up-refused "));
      assertThat(lines).anyMatch(l -> l.startsWith("ok insufficient-scope-thrown requiredScope=")
          && l.contains("ledger:write"));
    } finally {
      if (mcp != null) {
        mcp.close();
      }
      idp.shutdown();
    }
  }

  private static List<String> runNode(Path clients, String endpoint, String issuer)
      throws IOException, InterruptedException {
    Path node = clients.resolve("node_modules/.bin/node");
    Process process = new ProcessBuilder(
        Files.isExecutable(node) ? node.toString() : "node",
        clients.resolve("test/oauth-client-credentials.mjs").toString(), endpoint, issuer)
        .directory(clients.toFile())
        .redirectErrorStream(true)
        .start();
    byte[] out;
    try {
      // The script is bounded by its own requests; this bounds it as a whole.
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the client script did not finish in 120 s: "
            + new String(process.getInputStream().readNBytes(64 * 1024), StandardCharsets.UTF_8));
      }
      out = process.getInputStream().readAllBytes();
    } finally {
      process.destroyForcibly();
    }
    String output = new String(out, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("exit status of the client script; it said:%n%s", output)
        .isZero();
    return output.lines().toList();
  }

  private static Path clients() {
    String named = System.getProperty("fusion.clients", "");
    Path dir = named.isEmpty() ? Path.of("..", "clients") : Path.of(named);
    Path sdk = dir.resolve("node_modules/@modelcontextprotocol/client/package.json");
    if (Files.exists(sdk)) {
      return dir.toAbsolutePath().normalize();
    }
    if (!named.isEmpty()) {
      throw new AssertionError("-Dfusion.clients=" + named + " has no installed SDK client (" + sdk
          + "): run npm install there");
    }
    return null;
  }

  /**
   * The authorization server's token policy: the subject and {@code client_id} are the client's id
   * (client_secret_basic), the audience is the resource the client names (RFC 8707; none named, no
   * audience, and the connector refuses the token), the scope is what the client asks for that it
   * may have.
   */
  static final class ScopedClients implements OAuth2TokenCallback {
    @Override
    public String issuerId() {
      return "idp";
    }

    @Override
    public String subject(TokenRequest request) {
      return clientId(request);
    }

    @Override
    public String typeHeader(TokenRequest request) {
      return "JWT";
    }

    @Override
    public List<String> audience(TokenRequest request) {
      List<URI> resources = request.getResources();
      return resources == null ? List.of() : resources.stream().map(URI::toString).toList();
    }

    private final AtomicInteger stepperTokens = new AtomicInteger();

    @Override
    public Map<String, Object> addClaims(TokenRequest request) {
      String client = clientId(request);
      Set<String> allowed = !client.equals("ledger-stepper") ? ALLOWED.getOrDefault(client, Set.of())
          : stepperTokens.getAndIncrement() == 0 ? Set.of("ledger:read") : STEPPER_LATER;
      Set<String> granted = new LinkedHashSet<>();
      if (request.getScope() != null) {
        for (String scope : request.getScope().toStringList()) {
          if (allowed.contains(scope)) {
            granted.add(scope);
          }
        }
      }
      return Map.of("client_id", client, "scope", String.join(" ", new ArrayList<>(granted)));
    }

    @Override
    public long tokenExpiry() {
      return 300;
    }

    private static String clientId(TokenRequest request) {
      ClientAuthentication auth = request.getClientAuthentication();
      return auth != null ? auth.getClientID().getValue()
          : request.getClientID() != null ? request.getClientID().getValue() : "anonymous";
    }
  }
}
