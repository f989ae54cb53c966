package dev.mcpfusion.spring.boot.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.auth.HostileTokens;
import dev.mcpfusion.auth.RotatingKeys;
import dev.mcpfusion.spring.boot.ContextProvider;
import dev.mcpfusion.spring.boot.QuietRefusals;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.JwkSetUriJwtDecoderBuilderCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Boot application with Spring Security's OAuth2 resource server (JWT, from
 * {@code spring.security.oauth2.resourceserver.jwt.issuer-uri}) against a real authorization server
 * started here (mock-oauth2-server: OpenID metadata, a JWKS, RS256 tokens), over stateless and
 * session HTTP. Tagged: it runs in its own surefire execution, the only one with Spring Security
 * on the class path.
 */
@Tag("spring-security")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResourceServerEndpointTest {
  static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  static RotatingKeys keys;
  static MockOAuth2Server idp;
  static String issuer;
  static String resource;
  static ConfigurableApplicationContext app;

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class VaultApp {
    @Bean
    VaultTools vaultTools() {
      return new VaultTools();
    }

    /**
     * The issuer's metadata and keys read with a 10 s timeout rather than Nimbus's 500 ms: the
     * test authorization server answers its first requests slowly on a loaded machine.
     */
    @Bean
    JwkSetUriJwtDecoderBuilderCustomizer patientIssuer() {
      org.springframework.http.client.SimpleClientHttpRequestFactory requests =
          new org.springframework.http.client.SimpleClientHttpRequestFactory();
      requests.setConnectTimeout(10_000);
      requests.setReadTimeout(10_000);
      return builder -> builder.restOperations(new org.springframework.web.client.RestTemplate(requests));
    }

    /** Another endpoint of the application, which Boot's own resource-server chain guards. */
    @Bean
    org.springframework.boot.web.servlet.ServletRegistrationBean<jakarta.servlet.http.HttpServlet> elsewhere() {
      return new org.springframework.boot.web.servlet.ServletRegistrationBean<>(new jakarta.servlet.http.HttpServlet() {
        @Override
        protected void doGet(jakarta.servlet.http.HttpServletRequest req,
            jakarta.servlet.http.HttpServletResponse resp) throws java.io.IOException {
          resp.getWriter().write("elsewhere");
        }
      }, "/elsewhere");
    }

    /** A published document under the endpoint's path, where every other request needs a token. */
    @Bean
    dev.mcpfusion.http.PublicDocument serverCard() {
      return new dev.mcpfusion.http.PublicDocument("/mcp/server-card", "application/json",
          "{\"name\":\"com.example/vault\"}");
    }

    @Bean
    ContextProvider<Tenant> tenant() {
      return ContextProvider.of(Tenant.class,
          request -> new Tenant(String.valueOf(request.caller().claims().getOrDefault("tenant", "none"))));
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
    app = new SpringApplicationBuilder(VaultApp.class).properties(
        "server.port=" + port, "server.address=127.0.0.1",
        "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + issuer,
        "mcpfusion.security.resource=" + resource,
        "mcpfusion.security.scopes=vault:read,vault:write").run();
    // The first token makes Boot's decoder read the issuer's metadata and keys; on a loaded machine
    // the test issuer's first answers can be slow enough to count as an outage (503): wait it out.
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (post(call("vault_whoami", "{}"), token("vault:read"), null).statusCode() == 503
        && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
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

  // ---- tokens and requests -------------------------------------------------------------------------

  /** A token the issuer signs for {@code audience}, valid for {@code expirySeconds} (negative: expired). */
  static String token(String audience, Map<String, Object> claims, long expirySeconds) {
    return idp.issueToken("idp", "vault-cli", new DefaultOAuth2TokenCallback("idp", "alice", "JWT",
        List.of(audience), claims, expirySeconds)).serialize();
  }

  static String token(String scope) {
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("scope", scope);
    claims.put("client_id", "vault-cli");
    claims.put("tenant", "acme");
    return token(resource, claims, 300);
  }

  static HttpResponse<String> post(String body, String token, String session) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(resource))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (body.contains(MODERN_META) && body.contains("\"method\":\"tools/list\"")) {
      request.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list");
    } else if (body.contains(MODERN_META)) {
      request.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call");
      int name = body.indexOf("\"name\":\"") + 8;
      request.header("Mcp-Name", body.substring(name, body.indexOf('"', name)));
    }
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A stateless (2026-07-28) tool call. */
  static String call(String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
        + "\",\"arguments\":" + arguments + "," + MODERN_META + "}}";
  }

  static String metadataUrl() {
    return resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  }

  static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  // ---- tests ---------------------------------------------------------------------------------------

  @Test
  void noTokenIs401NamingTheMetadataWhichIsServedWithoutAToken() throws Exception {
    HttpResponse<String> response = post(call("vault_whoami", "{}"), null, null);
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().allValues("WWW-Authenticate"))
        .containsExactly("Bearer resource_metadata=\"" + metadataUrl() + "\"");
    assertThat(response.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":")
        .contains("send an access token");

    for (String url : List.of(metadataUrl(), resource.replace("/mcp", "/.well-known/oauth-protected-resource"))) {
      HttpResponse<String> metadata = get(url);
      assertThat(metadata.statusCode()).as(url).isEqualTo(200);
      assertThat(metadata.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
      assertThat(metadata.body()).isEqualTo("{\"resource\":\"" + resource + "\",\"authorization_servers\":[\""
          + issuer + "\"],\"scopes_supported\":[\"vault:read\",\"vault:write\"],"
          + "\"bearer_methods_supported\":[\"header\"]}");
    }
    assertThat(get(resource.replace("/mcp", "/.well-known/oauth-protected-resource/elsewhere")).statusCode())
        .isEqualTo(404);
  }

  @Test
  void aValidTokenReachesTheHandlerWithItsSubjectClientScopesAndTenant() throws Exception {
    HttpResponse<String> response = post(call("vault_whoami", "{}"), token("vault:read"), null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("subject=alice client=vault-cli scopes=vault:read tenant=acme")
        .doesNotContain("\"isError\":true");
  }

  @Test
  void aSessionServesItsCallerAndRefusesACallWithoutItsScope() throws Exception {
    String reader = token("vault:read");
    HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", reader, null);
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", reader, session);
    String store = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
        + "\"name\":\"vault_store\",\"arguments\":{\"item\":\"deed\"}}}";
    HttpResponse<String> refused = post(store, reader, session);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.headers().allValues("WWW-Authenticate")).containsExactly(
        "Bearer error=\"insufficient_scope\", scope=\"vault:write\", resource_metadata=\"" + metadataUrl() + "\"");
    // A new token of the same caller, with the scope, in the same session.
    HttpResponse<String> stored = post(store, token("vault:read vault:write"), session);
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(stored.body()).contains("stored deed for alice");
  }

  @Test
  void toolsListShowsEachTokenWhatItsScopesAllow() throws Exception {
    String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" + MODERN_META + "}}";
    assertThat(post(list, token("vault:read"), null).body())
        .contains("\"vault_whoami\"").doesNotContain("\"vault_store\"");
    assertThat(post(list, token("vault:read vault:write"), null).body())
        .contains("\"vault_whoami\"").contains("\"vault_store\"");
    assertThat(post(list, token("profile"), null).body())
        .doesNotContain("\"vault_whoami\"").contains("\"tools\":[]");
  }

  @Test
  void aCorsPreflightPassesToTheEndpointAndTheRestOfTheApplicationStaysGuarded() throws Exception {
    HttpResponse<String> preflight = HTTP.send(HttpRequest.newBuilder(URI.create(resource))
        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", resource.replace("/mcp", ""))
        .header("Access-Control-Request-Method", "POST").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(preflight.statusCode()).isEqualTo(204);
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers")).hasValueSatisfying(
        headers -> assertThat(headers).contains("Authorization"));
    // Boot's own resource-server chain still guards the application's other endpoints.
    assertThat(get(resource.replace("/mcp", "/elsewhere")).statusCode()).isEqualTo(401);
    HttpResponse<String> elsewhere = HTTP.send(HttpRequest.newBuilder(URI.create(resource.replace("/mcp", "/elsewhere")))
        .header("Authorization", "Bearer " + token("vault:read")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(elsewhere.body()).isEqualTo("elsewhere");
  }

  @Test
  void aPublishedDocumentNeedsNoTokenEvenUnderTheEndpointsPath() throws Exception {
    HttpResponse<String> card = get(resource + "/server-card");
    assertThat(card.statusCode()).isEqualTo(200);
    assertThat(card.body()).isEqualTo("{\"name\":\"com.example/vault\"}");
    // The endpoint itself still asks for one.
    assertThat(post(call("vault_whoami", "{}"), null, null).statusCode()).isEqualTo(401);
    // A path under the endpoint that nothing serves is Tomcat's own 404: with no servlet mapped to
    // it Tomcat runs no filter at all (this application has no DispatcherServlet at "/"), so no
    // chain could answer 401 there — and nothing is served without a token.
    HttpResponse<String> unmapped = get(resource + "/other");
    assertThat(unmapped.statusCode()).isEqualTo(404);
    assertThat(unmapped.headers().firstValue("X-Content-Type-Options")).as("no security filter ran").isEmpty();
  }

  @Test
  void aCallWithoutItsScopeIs403InsufficientScopeNamingIt() throws Exception {
    HttpResponse<String> response = post(call("vault_store", "{\"item\":\"deed\"}"), token("vault:read"), null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly(
        "Bearer error=\"insufficient_scope\", scope=\"vault:write\", resource_metadata=\"" + metadataUrl() + "\"");
    assertThat(response.body()).contains("vault:write");

    Map<String, Object> scp = new LinkedHashMap<>();
    scp.put("scp", List.of("vault:read", "vault:write"));
    HttpResponse<String> allowed = post(call("vault_store", "{\"item\":\"deed\"}"), token(resource, scp, 300), null);
    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
    assertThat(allowed.body()).contains("stored deed for alice");
  }

  @Test
  void aTokenForAnotherAudienceExpiredOrFromAnotherIssuerIs401InvalidTokenWithNothingEchoed() throws Exception {
    Map<String, Object> claims = Map.of("scope", "vault:read");
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("wrong audience", token("https://other.example/mcp", claims, 300));
    bad.put("expired", token(resource, claims, -300));
    bad.put("another issuer", idp.issueToken("elsewhere", "vault-cli", new DefaultOAuth2TokenCallback(
        "elsewhere", "alice", "JWT", List.of(resource), claims, 300)).serialize());
    bad.put("not a JWT", "not-a-jwt");
    for (Map.Entry<String, String> entry : bad.entrySet()) {
      HttpResponse<String> response = post(call("vault_whoami", "{}"), entry.getValue(), null);
      assertThat(response.statusCode()).as(entry.getKey()).isEqualTo(401);
      assertThat(response.headers().allValues("WWW-Authenticate")).as(entry.getKey()).containsExactly(
          "Bearer resource_metadata=\"" + metadataUrl() + "\", error=\"invalid_token\"");
      assertThat(response.body()).as(entry.getKey()).contains("not valid for this server")
          .doesNotContain(entry.getValue()).doesNotContain("Jwt").doesNotContain("Exception");
    }
  }

  @Test
  void everyBadTokenIs401WithNothingEchoedAndNothingLoggedAtError() throws Exception {
    QuietRefusals.assertEachRefusedQuietly(new HostileTokens(issuer, resource, keys.current(), "vault:read"),
        metadataUrl(), token -> post(call("vault_whoami", "{}"), token, null));
  }

  @Test
  void a64KilobyteTokenIs401InvalidTokenWithNothingEchoed() throws Exception {
    // Spring Security's caller is an HttpAuthenticator bean: the starter gives Tomcat 80 KiB of
    // headers, so the token reaches the application's JwtDecoder and gets the endpoint's 401.
    String huge = token("vault:read") + "A".repeat(64 * 1024);
    HttpResponse<String> response = post(call("vault_whoami", "{}"), huge, null);
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().allValues("WWW-Authenticate")).containsExactly(
        "Bearer resource_metadata=\"" + metadataUrl() + "\", error=\"invalid_token\"");
    assertThat(response.body() + response.headers().map()).doesNotContain("AAAAAAAA")
        .doesNotContain(huge.substring(0, 40)).doesNotContain("Exception");
    assertThat(post(call("vault_whoami", "{}"), token("vault:read"), null).statusCode()).isEqualTo(200);
  }

  @Test
  void withoutAResourceUriStartupFailsNamingTheProperty() {
    Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() ->
        new SpringApplicationBuilder(VaultApp.class).properties("server.port=0", "server.address=127.0.0.1",
            "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + issuer).run().close());
    Throwable cause = failure;
    while (cause != null && !(cause instanceof dev.mcpfusion.spring.boot.FusionStartupException)) {
      cause = cause.getCause();
    }
    assertThat(cause).as(String.valueOf(failure)).isNotNull();
    assertThat(cause.getMessage()).contains("resource URI");
    assertThat(((dev.mcpfusion.spring.boot.FusionStartupException) cause).action())
        .contains("mcpfusion.security.resource").contains("spring.security.oauth2.resourceserver.jwt.audiences");
  }

  @Test
  void turnedOffTheStarterAddsNoChainAndTheEndpointServesTheLocalCaller() throws Exception {
    try (ConfigurableApplicationContext off = new SpringApplicationBuilder(VaultApp.class).properties(
        "server.port=0", "server.address=127.0.0.1", "mcpfusion.security.enabled=false",
        "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + issuer).run()) {
      assertThat(off.containsBean("mcpFusionSecurityFilterChain")).isFalse();
      String base = "http://127.0.0.1:" + off.getEnvironment().getProperty("local.server.port");
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/mcp"))
          .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
          .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
          .header("Mcp-Name", "vault_whoami").header("Authorization", "Bearer " + token("vault:read"))
          .POST(HttpRequest.BodyPublishers.ofString(call("vault_whoami", "{}"))).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(response.body()).contains("subject=- client=- scopes= tenant=none");
    }
  }

  @Test
  void anIssuerThatDoesNotAnswerIs503WithRetryAfterNotA401() throws Exception {
    int dead;
    try (ServerSocket socket = new ServerSocket(0)) {
      dead = socket.getLocalPort();
    }
    try (ConfigurableApplicationContext down = new SpringApplicationBuilder(VaultApp.class).properties(
        "server.port=0", "server.address=127.0.0.1", "mcpfusion.security.resource=" + resource,
        "mcpfusion.security.authorization-servers=" + issuer,
        "spring.security.oauth2.resourceserver.jwt.issuer-uri=http://127.0.0.1:" + dead + "/idp").run()) {
      String base = "http://127.0.0.1:" + down.getEnvironment().getProperty("local.server.port");
      String token = token("vault:read");
      HttpResponse<String> response = whoami(base, token);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
      assertThat(response.headers().firstValue("Retry-After")).contains("10");
      assertThat(response.headers().allValues("WWW-Authenticate")).isEmpty();
      assertThat(response.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":")
          .contains("retry in 10 s with the same token").doesNotContain(token).doesNotContain("Exception");
    }
  }

  /** A stateless {@code vault_whoami} call with {@code token} to the endpoint of the application at {@code base}. */
  private static HttpResponse<String> whoami(String base, String token) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "vault_whoami").header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofString(call("vault_whoami", "{}"))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * An issuer that answers but is overloaded (503 with its own Retry-After, on its metadata and
   * everything else): the delay it asks for is passed on, not the fixed pacing.
   */
  @Test
  void anOverloadedIssuersOwnRetryAfterIsPassedOn() throws Exception {
    com.sun.net.httpserver.HttpServer busy = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    busy.createContext("/", exchange -> {
      exchange.getResponseHeaders().add("Retry-After", "42");
      exchange.sendResponseHeaders(503, -1);
      exchange.close();
    });
    busy.start();
    String busyIssuer = "http://127.0.0.1:" + busy.getAddress().getPort() + "/idp";
    try (ConfigurableApplicationContext down = new SpringApplicationBuilder(VaultApp.class).properties(
        "server.port=0", "server.address=127.0.0.1", "mcpfusion.security.resource=" + resource,
        "mcpfusion.security.authorization-servers=" + issuer,
        "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + busyIssuer).run()) {
      String base = "http://127.0.0.1:" + down.getEnvironment().getProperty("local.server.port");
      String token = token("vault:read");
      HttpResponse<String> response = whoami(base, token);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
      assertThat(response.headers().allValues("Retry-After")).containsExactly("42");
      assertThat(response.body()).contains("retry in 42 s with the same token").doesNotContain(token);
    } finally {
      busy.stop(0);
    }
  }
}
