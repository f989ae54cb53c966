package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The official MCP TypeScript SDK client ({@code @modelcontextprotocol/client}, in {@code clients/})
 * against the billing sample started protected, as the README's "Protect a remote connector" starts
 * it ({@code BillingMain --http PORT --auth-issuer URL --resource URL}, in a process of its own):
 * without credentials the client gets the {@code 401} and reads the protected resource metadata it
 * names; with its client-credentials provider it gets a token from a real authorization server
 * (naming the sample as the resource), lists and calls billing tools, steps up on
 * {@code 403 insufficient_scope} when the server grants more, and reports the refusal when it does
 * not. The script is {@code clients/test/oauth-client-credentials.mjs}; this test starts both
 * servers and reads its verdicts.
 *
 * <p>Needs {@code clients/node_modules} (after {@code npm install} there): named by
 * {@code -Dfusion.clients=/path/to/clients}, else the repository's {@code clients/} when installed;
 * skipped without it. {@code .ci/run} installs the clients first, names them, and fails if this test
 * did not run and pass.
 */
class TypeScriptClientOAuthTest {
  /** The scopes each client may be granted; a client gets what it asks for within these. */
  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "billing-clerk", Set.of("invoices:read", "invoices:write"),
      "billing-reader", Set.of("invoices:read"));
  /** billing-stepper's first token has invoices:read only, its later ones invoices:write too (step-up). */
  private static final Set<String> STEPPER_LATER = Set.of("invoices:read", "invoices:write");

  @Test
  void theOfficialClientGetsATokenAndCallsTheProtectedBillingSample(@TempDir Path dir) throws Exception {
    Path clients = clients();
    Assumptions.assumeTrue(clients != null,
        "no installed clients/ (npm install there, or -Dfusion.clients=/path/to/clients)");
    MockOAuth2Server idp = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
        new OAuth2TokenProvider(), Set.of(new ScopedClients())));
    idp.start(InetAddress.getLoopbackAddress(), 0);
    Process billing = null;
    Path log = dir.resolve("billing.log");
    try {
      String issuer = idp.issuerUrl("idp").toString();
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      String resource = "http://127.0.0.1:" + port + "/mcp";
      billing = BillingProcess.listening(log, "--http", Integer.toString(port), "--auth-issuer", issuer,
          "--resource", resource);

      List<String> lines = runNode(clients, resource, issuer);
      lines.forEach(line -> System.out.println("OAUTH " + line)); // the verdicts, in the build's log

      assertThat(lines).as("the script's verdicts").noneMatch(l -> l.startsWith("fail "));
      assertThat(lines).anyMatch(l -> l.startsWith("ok no-token-401-and-metadata ")
          && l.contains("challenge=Bearer resource_metadata=\"http://127.0.0.1:" + port
              + "/.well-known/oauth-protected-resource/mcp\"")
          && l.endsWith("authorization_servers=" + issuer));
      assertThat(lines).anyMatch(l -> l.startsWith("ok client-credentials-call ")
          && l.contains("tools=billing_get_invoice,billing_list_invoices,billing_void_invoice")
          && l.contains("voided INV-0003"));
      assertThat(lines).anyMatch(l -> l.startsWith("ok step-up-granted token requests=2 voided INV-0007"));
      assertThat(lines).anyMatch(l -> l.startsWith("ok step-up-refused "));
      assertThat(lines).anyMatch(l -> l.startsWith("ok insufficient-scope-thrown requiredScope=")
          && l.contains("invoices:write"));
    } finally {
      if (billing != null) {
        BillingProcess.stop(billing);
      }
      idp.shutdown();
    }
    // What the sample logged: no error, and no token (every JWT starts with the base64url of '{"').
    String logged = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(logged).as(logged).doesNotContain("ERROR").doesNotContain("eyJ");
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
    Path dir = named.isEmpty()
        ? Path.of(System.getProperty("fusion.basedir", "."), "..", "..", "clients") : Path.of(named);
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
      Set<String> allowed = !client.equals("billing-stepper") ? ALLOWED.getOrDefault(client, Set.of())
          : stepperTokens.getAndIncrement() == 0 ? Set.of("invoices:read") : STEPPER_LATER;
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
