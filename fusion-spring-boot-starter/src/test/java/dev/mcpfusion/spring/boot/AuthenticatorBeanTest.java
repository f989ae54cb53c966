package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.auth.HostileTokens;
import dev.mcpfusion.auth.OAuth;
import dev.mcpfusion.auth.RotatingKeys;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.spring.boot.security.Tenant;
import dev.mcpfusion.spring.boot.security.VaultTools;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Boot application without Spring Security whose endpoint is guarded by an
 * {@link HttpAuthenticator} bean, fusion-auth's {@link OAuth} against a real authorization server
 * started here (mock-oauth2-server): the same answers as {@code FusionHttp} with that
 * authenticator — a {@code 401} naming the protected resource metadata, which is served beside the
 * endpoint; {@code tools/list} per scope; a mutation without its scope {@code 403
 * insufficient_scope}, with it the handler's; the caller in the handler, a context provider and
 * middleware.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AuthenticatorBeanTest {
  static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static final Pattern NAME = Pattern.compile("\"name\":\"([^\"]+)\"");

  static RotatingKeys keys;
  static MockOAuth2Server idp;
  static String issuer;
  static String resource;
  static ConfigurableApplicationContext app;
  /** The subjects the middleware saw, one per call that reached it. */
  static final List<String> middlewareSaw = new CopyOnWriteArrayList<>();

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class VaultApp {
    @Bean
    VaultTools vaultTools() {
      return new VaultTools();
    }

    @Bean
    HttpAuthenticator oauth() {
      return OAuth.issuer(issuer).resource(resource).scopes("vault:read", "vault:write").authenticator();
    }

    @Bean
    ContextProvider<Tenant> tenant() {
      return ContextProvider.of(Tenant.class,
          request -> new Tenant(String.valueOf(request.caller().claims().getOrDefault("tenant", "none"))));
    }

    @Bean
    FusionServerCustomizer callerSeenByMiddleware() {
      return builder -> builder.middleware((call, next) -> {
        middlewareSaw.add(call.request().caller().subject().orElse("-"));
        return next.proceed(call);
      });
    }
  }

  @BeforeAll
  static void start() throws Exception {
    keys = new RotatingKeys();
    idp = keys.startIssuer();
    issuer = idp.issuerUrl("idp").toString();
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    resource = "http://127.0.0.1:" + port + "/mcp";
    app = new SpringApplicationBuilder(VaultApp.class)
        .properties("server.port=" + port, "server.address=127.0.0.1").run();
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    if (idp != null) {
      idp.shutdown();
    }
  }

  static String token(String scope) {
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("scope", scope);
    claims.put("client_id", "vault-cli");
    claims.put("tenant", "acme");
    return idp.issueToken("idp", "vault-cli", new DefaultOAuth2TokenCallback("idp", "alice", "JWT",
        List.of(resource), claims, 300)).serialize();
  }

  /** A stateless (2026-07-28) request with the standard headers a client sends with it. */
  static HttpResponse<String> post(String method, String params, String token) throws Exception {
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{"
        + params + (params.isEmpty() ? "" : ",") + MODERN_META + "}}";
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(resource))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    Matcher name = NAME.matcher(params);
    if (method.equals("tools/call") && name.find()) {
      request.header("Mcp-Name", name.group(1));
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String metadataUrl() {
    return resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  }

  @Test
  void noTokenIs401NamingTheMetadataWhichIsServedBesideTheEndpoint() throws Exception {
    HttpResponse<String> response = post("tools/list", "", null);
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().allValues("WWW-Authenticate"))
        .containsExactly("Bearer resource_metadata=\"" + metadataUrl() + "\"");

    for (String url : List.of(metadataUrl(), resource.replace("/mcp", "/.well-known/oauth-protected-resource"))) {
      HttpResponse<String> metadata = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(metadata.statusCode()).as(url).isEqualTo(200);
      assertThat(metadata.body()).isEqualTo("{\"resource\":\"" + resource + "\",\"authorization_servers\":[\""
          + issuer + "\"],\"scopes_supported\":[\"vault:read\",\"vault:write\"],"
          + "\"bearer_methods_supported\":[\"header\"]}");
    }
    HttpResponse<String> bad = post("tools/list", "", "not-a-token");
    assertThat(bad.statusCode()).isEqualTo(401);
    assertThat(bad.headers().allValues("WWW-Authenticate"))
        .containsExactly("Bearer resource_metadata=\"" + metadataUrl() + "\", error=\"invalid_token\"");
    assertThat(bad.body()).doesNotContain("not-a-token");
  }

  @Test
  void everyBadTokenIs401WithNothingEchoedAndNothingLoggedAtError() throws Exception {
    QuietRefusals.assertEachRefusedQuietly(new HostileTokens(issuer, resource, keys.current(), "vault:read"),
        metadataUrl(), token -> post("tools/call", "\"name\":\"vault_whoami\",\"arguments\":{}", token));
  }

  @Test
  void toolsListShowsEachTokenWhatItsScopesAllow() throws Exception {
    assertThat(post("tools/list", "", token("vault:read")).body())
        .contains("\"vault_whoami\"").doesNotContain("\"vault_store\"");
    assertThat(post("tools/list", "", token("vault:read vault:write")).body())
        .contains("\"vault_whoami\"").contains("\"vault_store\"");
    assertThat(post("tools/list", "", token("profile")).body())
        .doesNotContain("\"vault_whoami\"").contains("\"tools\":[]");
  }

  @Test
  void aMutationWithoutItsScopeIs403AndWithItReachesTheHandlerWithTheCaller() throws Exception {
    String store = "\"name\":\"vault_store\",\"arguments\":{\"item\":\"deed\"}";
    middlewareSaw.clear();
    HttpResponse<String> refused = post("tools/call", store, token("vault:read"));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.headers().allValues("WWW-Authenticate")).containsExactly(
        "Bearer error=\"insufficient_scope\", scope=\"vault:write\", resource_metadata=\"" + metadataUrl() + "\"");
    assertThat(middlewareSaw).as("a refused call reaches no middleware").isEmpty();

    HttpResponse<String> stored = post("tools/call", store, token("vault:read vault:write"));
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(stored.body()).contains("stored deed for alice").doesNotContain("\"isError\":true");

    HttpResponse<String> who = post("tools/call", "\"name\":\"vault_whoami\",\"arguments\":{}", token("vault:read"));
    assertThat(who.body()).contains("subject=alice client=vault-cli scopes=vault:read tenant=acme");
    assertThat(middlewareSaw).containsExactly("alice", "alice");
  }

  @Test
  void a64KilobyteTokenIs401InvalidTokenAndLargerHeadersAreRefusedUnechoed() throws Exception {
    // With an HttpAuthenticator bean the starter gives Tomcat 80 KiB of headers (TomcatHeaderRoom).
    String huge = token("vault:read") + "A".repeat(64 * 1024);
    HttpResponse<String> response = post("tools/list", "", huge);
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().allValues("WWW-Authenticate"))
        .containsExactly("Bearer resource_metadata=\"" + metadataUrl() + "\", error=\"invalid_token\"");
    assertThat(response.body() + response.headers().map()).doesNotContain("AAAAAAAA")
        .doesNotContain(huge.substring(0, 40));
    assertThat(TomcatHeaderRoomTest.headerLimit(app)).isEqualTo(80 * 1024);

    HttpResponse<String> over = post("tools/list", "", "B".repeat(80 * 1024));
    assertThat(over.statusCode()).isEqualTo(400);
    assertThat(over.body() + over.headers().map()).doesNotContain("BBBBBBBB").doesNotContain("Exception");
    assertThat(post("tools/list", "", token("vault:read")).statusCode()).isEqualTo(200);
  }
}
