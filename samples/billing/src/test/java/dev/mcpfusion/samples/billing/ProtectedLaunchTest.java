package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.auth.ApiKeys;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample's protection options as a user passes them to {@link BillingMain}: API keys from a
 * file of hashes ({@code --api-key-file}, each key with its scopes) against the sample's
 * {@code @Scopes}, and the options' misuse refused at startup naming the fix. The OAuth options
 * with a real client and authorization server: {@link TypeScriptClientOAuthTest}.
 */
class ProtectedLaunchTest {
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  @Test
  void apiKeysFromAFileGetTheirScopes(@TempDir Path dir) throws Exception {
    String reader = ApiKeys.generate();
    String clerk = ApiKeys.generate();
    Path keys = dir.resolve("keys");
    Files.write(keys, List.of("# hash  subject  scopes",
        ApiKeys.hash(reader) + "  reporting-bot  invoices:read",
        ApiKeys.hash(clerk) + "  billing-clerk  invoices:read invoices:write"));
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String resource = "http://127.0.0.1:" + port + "/mcp";
    Path log = dir.resolve("billing.log");
    Process billing = BillingProcess.listening(log, "--http", Integer.toString(port),
        "--api-key-file", keys.toString(), "--resource", resource);
    try {
      HttpResponse<String> none = post(resource, "tools/list", "", null);
      assertThat(none.statusCode()).isEqualTo(401);
      // API keys only: no authorization server, so the challenge points to no metadata.
      assertThat(none.headers().allValues("WWW-Authenticate")).containsExactly("Bearer");
      assertThat(post(resource, "tools/list", "", "not-a-key").statusCode()).isEqualTo(401);

      assertThat(post(resource, "tools/list", "", reader).body())
          .contains("\"billing_get_invoice\"").doesNotContain("\"billing_void_invoice\"");
      String voidIt = "\"name\":\"billing_void_invoice\",\"arguments\":{\"id\":\"INV-0015\"}";
      HttpResponse<String> refused = post(resource, "tools/call", voidIt, reader);
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
      assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge ->
          assertThat(challenge).startsWith("Bearer error=\"insufficient_scope\", scope=\"invoices:write\""));
      HttpResponse<String> voided = post(resource, "tools/call", voidIt, clerk);
      assertThat(voided.statusCode()).as(voided.body()).isEqualTo(200);
      assertThat(voided.body()).contains("INV-0015").doesNotContain("\"isError\":true");
    } finally {
      BillingProcess.stop(billing);
    }
    assertThat(Files.readString(log, StandardCharsets.UTF_8)).doesNotContain(reader).doesNotContain(clerk);
  }

  @Test
  void theOptionsMisusedStopTheStartNamingTheFix(@TempDir Path dir) throws Exception {
    Path noResource = dir.resolve("no-resource.log");
    assertThat(BillingProcess.exitStatus(noResource, "--http", "0", "--auth-issuer", "https://idp.example.com"))
        .isEqualTo(2);
    assertThat(Files.readString(noResource, StandardCharsets.UTF_8))
        .contains("--auth-issuer and --api-key-file need --resource").contains("Usage:");

    Path resourceAlone = dir.resolve("resource-alone.log");
    assertThat(BillingProcess.exitStatus(resourceAlone, "--http", "0", "--resource", "http://127.0.0.1/mcp"))
        .isEqualTo(2);
    assertThat(Files.readString(resourceAlone, StandardCharsets.UTF_8))
        .contains("--resource needs --auth-issuer or --api-key-file.");

    Path badKeys = dir.resolve("bad-keys.log");
    Path keys = dir.resolve("keys");
    Files.write(keys, List.of("not-a-hash someone"));
    assertThat(BillingProcess.exitStatus(badKeys, "--http", "0", "--api-key-file", keys.toString(),
        "--resource", "http://127.0.0.1/mcp")).isEqualTo(2);
    assertThat(Files.readString(badKeys, StandardCharsets.UTF_8)).contains(keys + ":1: expected 'sha256:");
  }

  /** A stateless (2026-07-28) request with the standard headers, and the key as {@code X-API-Key}. */
  private static HttpResponse<String> post(String resource, String method, String params, String key)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(resource))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method)
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
            + "\",\"params\":{" + params + (params.isEmpty() ? "" : ",") + META + "}}"));
    if (method.equals("tools/call")) {
      request.header("Mcp-Name", "billing_void_invoice");
    }
    if (key != null) {
      request.header("X-API-Key", key);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
