package dev.mcpfusion.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.http.hostile.HostileCorpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The resource server against a real authorization server started here (no.nav's
 * mock-oauth2-server: OAuth 2.0 / OpenID metadata, a JWKS, real RS256 tokens), over Streamable and
 * stateless HTTP on embedded Jetty.
 */
class OAuthHttpTest {
  static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
  static final Duration RATE_LIMIT = Duration.ofMillis(300);

  static RotatingKeys keys;
  static MockOAuth2Server idp;
  static String issuer;
  static String resource;
  static FusionHttpServer mcp;
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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
    mcp = FusionHttp.serve(FusionServer.builder("ledger", "1.0.0").register(new LedgerTools()).build(),
        HttpOptions.port(port).auth(OAuth.issuer(issuer).resource(resource)
            .scopes("ledger:read", "ledger:write").jwksRateLimit(RATE_LIMIT).authenticator())
            .maxBodyBytes(HostileCorpus.MAX_BODY_BYTES));
  }

  @AfterAll
  static void stop() {
    if (mcp != null) {
      mcp.close();
    }
    if (idp != null) {
      idp.shutdown();
    }
  }

  // ---- tokens ------------------------------------------------------------------------------------

  static JWTClaimsSet.Builder claims() {
    return new HostileTokens(issuer, resource, keys.current(), "ledger:read").claims()
        .claim("client_id", "ledger-cli");
  }

  static String sign(JWTClaimsSet claims, RSAKey key) {
    return HostileTokens.sign(claims, key);
  }

  static String token(String scope) throws Exception {
    return sign(claims().claim("scope", scope).build(), keys.current());
  }

  // ---- HTTP ----------------------------------------------------------------------------------------

  private static final Pattern METHOD = Pattern.compile("\"method\":\"([^\"]+)\"");
  private static final Pattern NAME = Pattern.compile("\"name\":\"([^\"]+)\"");
  private static final Pattern URI_PARAM = Pattern.compile("\"uri\":\"([^\"]+)\"");

  static HttpResponse<String> post(String body, String token) throws Exception {
    return post(body, token, null);
  }

  /**
   * POSTs {@code body}; a 2026-07-28 message carries the standard headers that mirror it
   * ({@code MCP-Protocol-Version}, {@code Mcp-Method}, and {@code Mcp-Name} on a tool call, a
   * prompts/get and a resources/read), as a
   * real client sends them; a classic one the session, when given.
   */
  static HttpResponse<String> post(String body, String token, String session) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(resource))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    Matcher method = METHOD.matcher(body);
    if (body.contains(MODERN_META) && method.find()) {
      request.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method.group(1));
      Matcher name = NAME.matcher(body);
      Matcher uri = URI_PARAM.matcher(body);
      if (method.group(1).matches("tools/call|prompts/get") && name.find()) {
        request.header("Mcp-Name", name.group(1));
      } else if (method.group(1).equals("resources/read") && uri.find()) {
        request.header("Mcp-Name", uri.group(1));
      }
    }
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String call(String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
        + "\",\"arguments\":" + arguments + "," + MODERN_META + "}}";
  }

  static String list() {
    return "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" + MODERN_META + "}}";
  }

  static String metadataUrl() {
    return resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  }

  // ---- tests ---------------------------------------------------------------------------------------

  @Test
  void noTokenIs401WithTheMetadataPointerAndTheMetadataIsServed() throws Exception {
    HttpResponse<String> response = post(call("ledger_whoami", "{}"), null);
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .contains("Bearer resource_metadata=\"" + metadataUrl() + "\"");

    for (String url : List.of(metadataUrl(), resource.replace("/mcp", "/.well-known/oauth-protected-resource"))) {
      HttpResponse<String> metadata = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(metadata.statusCode()).isEqualTo(200);
      assertThat(metadata.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
      assertThat(metadata.body()).isEqualTo("{\"resource\":\"" + resource + "\",\"authorization_servers\":[\""
          + issuer + "\"],\"scopes_supported\":[\"ledger:read\",\"ledger:write\"],"
          + "\"bearer_methods_supported\":[\"header\"]}");
    }
    HttpResponse<String> other = HTTP.send(HttpRequest.newBuilder(URI.create(
        resource.replace("/mcp", "/.well-known/oauth-protected-resource/elsewhere"))).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(other.statusCode()).isEqualTo(404);
  }

  @Test
  void everyBadTokenIs401InvalidTokenWithNothingEchoedAndNothingLoggedAtError() throws Exception {
    Map<String, String> bad = new LinkedHashMap<>(
        new HostileTokens(issuer, resource, keys.current(), "ledger:read ledger:write").all());
    bad.put("no subject", sign(new JWTClaimsSet.Builder(claims().build()).subject(null).build(), keys.current()));

    PrintStream err = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    try {
      for (Map.Entry<String, String> entry : bad.entrySet()) {
        HttpResponse<String> response = post(call("ledger_whoami", "{}"), entry.getValue());
        assertThat(response.statusCode()).as(entry.getKey()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).as(entry.getKey())
            .contains("Bearer resource_metadata=\"" + metadataUrl() + "\", error=\"invalid_token\"");
        String everything = response.body() + response.headers().map();
        for (String fragment : HostileTokens.fragments(entry.getValue())) {
          assertThat(everything).as(entry.getKey()).doesNotContain(fragment);
        }
        assertThat(response.body()).as(entry.getKey()).doesNotContain("Exception").doesNotContain("nimbus");
      }
    } finally {
      System.setErr(err);
    }
    String log = logged.toString(StandardCharsets.UTF_8);
    assertThat(log).doesNotContain("ERROR").doesNotContain("Exception");
    for (String token : bad.values()) {
      for (String fragment : HostileTokens.fragments(token)) {
        assertThat(log).doesNotContain(fragment);
      }
    }
  }

  @Test
  void aValidTokenReachesTheHandlerAsTheCaller() throws Exception {
    HttpResponse<String> response = post(call("ledger_whoami", "{}"), token("ledger:read"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("subject=alice client=ledger-cli scopes=ledger:read");
  }

  @Test
  void aSessionAnswersOnlyTheCallerWhoOpenedIt() throws Exception {
    String alice = token("ledger:read");
    String bob = sign(claims().subject("bob").build(), keys.current());
    HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", alice);
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";

    HttpResponse<String> stolen = post(ping, bob, session);
    assertThat(stolen.statusCode()).isEqualTo(404);
    assertThat(stolen.body()).contains("Session not found").doesNotContain("alice");
    // A new token of the same caller (other scopes, other expiry) keeps the session.
    HttpResponse<String> same = post(ping, token("ledger:read ledger:write"), session);
    assertThat(same.statusCode()).as(same.body()).isEqualTo(200);
  }

  @Test
  void aTokenFromTheIssuersTokenEndpointIsAccepted() throws Exception {
    // client_credentials at the real token endpoint, issued for this server (RFC 8707 resource).
    idp.enqueueCallback(new no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback("idp",
        "ledger-cli", "JWT", List.of(resource), Map.of("scope", "ledger:read", "client_id", "ledger-cli"), 300));
    HttpResponse<String> tokenResponse = HTTP.send(HttpRequest.newBuilder(
            URI.create(idp.tokenEndpointUrl("idp").toString()))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=ledger-cli"
            + "&client_secret=s&scope=ledger:read&resource=" + java.net.URLEncoder.encode(resource,
            StandardCharsets.UTF_8) + "&audience=" + java.net.URLEncoder.encode(resource, StandardCharsets.UTF_8)))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(tokenResponse.statusCode()).as(tokenResponse.body()).isEqualTo(200);
    String accessToken = (String) com.nimbusds.jose.util.JSONObjectUtils.parse(tokenResponse.body())
        .get("access_token");
    HttpResponse<String> response = post(call("ledger_whoami", "{}"), accessToken);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).contains("client=ledger-cli");
  }

  @Test
  void aCallWithoutItsScopeIs403InsufficientScopeNamingIt() throws Exception {
    HttpResponse<String> response = post(call("ledger_post", "{\"entry\":\"rent\"}"), token("ledger:read"));
    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.headers().firstValue("WWW-Authenticate")).contains(
        "Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\"" + metadataUrl() + "\"");
    assertThat(response.body()).contains("ledger:write");

    HttpResponse<String> allowed = post(call("ledger_post", "{\"entry\":\"rent\"}"),
        token("ledger:read ledger:write"));
    assertThat(allowed.statusCode()).isEqualTo(200);
    assertThat(allowed.body()).contains("posted rent by alice");
  }

  @Test
  void toolsListShowsEachTokenWhatItsScopesAllow() throws Exception {
    assertThat(post(list(), token("ledger:read")).body())
        .contains("\"ledger_whoami\"").doesNotContain("\"ledger_post\"");
    assertThat(post(list(), token("ledger:read ledger:write")).body())
        .contains("\"ledger_whoami\"").contains("\"ledger_post\"");
    assertThat(post(list(), token("profile")).body())
        .doesNotContain("\"ledger_whoami\"").doesNotContain("\"ledger_post\"").contains("\"tools\":[]");
  }

  static String request(int id, String method, String params, boolean modern) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
        + params + (modern ? (params.isEmpty() ? "" : ",") + MODERN_META : "") + "}}";
  }

  @Test
  void promptsAndResourcesWithoutTheirScopeAreHiddenAndAnswer403InBothEras() throws Exception {
    String reader = token("ledger:read");
    String writer = token("ledger:read ledger:write");
    HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", reader);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    for (boolean modern : List.of(true, false)) {
      String in = modern ? null : session;
      String era = modern ? "2026-07-28" : "2025-11-25";
      assertThat(post(request(2, "prompts/list", "", modern), reader, in).body()).as(era)
          .doesNotContain("\"draft\"");
      assertThat(post(request(3, "resources/list", "", modern), reader, in).body()).as(era)
          .doesNotContain("ledger://audit");
      for (String refused : List.of(request(4, "prompts/get", "\"name\":\"draft\"", modern),
          request(5, "resources/read", "\"uri\":\"ledger://audit\"", modern))) {
        HttpResponse<String> response = post(refused, reader, in);
        assertThat(response.statusCode()).as(era + " " + refused).isEqualTo(403);
        assertThat(response.headers().firstValue("WWW-Authenticate")).as(era).contains(
            "Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\""
                + metadataUrl() + "\"");
      }
    }
    // The writer sees and uses them (modern era: stateless, any token of the caller's).
    assertThat(post(request(2, "prompts/list", "", true), writer).body()).contains("\"draft\"");
    assertThat(post(request(3, "resources/list", "", true), writer).body()).contains("ledger://audit");
    HttpResponse<String> read = post(request(5, "resources/read", "\"uri\":\"ledger://audit\"", true), writer);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(read.body()).contains("all clear");
  }

  @Test
  void completingOrSubscribingWithoutTheScopeIs403InsufficientScopeInBothEras() throws Exception {
    String reader = token("ledger:read");
    HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", reader);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    String completion = "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"draft\"},"
        + "\"argument\":{\"name\":\"tone\",\"value\":\"\"}";
    // Each refused request with the session it is sent in (none: stateless 2026-07-28);
    // subscriptions are a 2025 session's only.
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put(request(6, "completion/complete", completion, true), "");
    refused.put(request(6, "completion/complete", completion, false), session);
    refused.put(request(7, "resources/subscribe", "\"uri\":\"ledger://audit\"", false), session);
    for (Map.Entry<String, String> entry : refused.entrySet()) {
      HttpResponse<String> response = post(entry.getKey(), reader,
          entry.getValue().isEmpty() ? null : entry.getValue());
      assertThat(response.statusCode()).as(entry.getKey()).isEqualTo(403);
      assertThat(response.headers().firstValue("WWW-Authenticate")).as(entry.getKey()).contains(
          "Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\""
              + metadataUrl() + "\"");
    }
  }

  @Test
  void aKeyRotationAtTheIssuerIsPickedUp() throws Exception {
    assertThat(post(call("ledger_whoami", "{}"), token("ledger:read")).statusCode()).isEqualTo(200);
    keys.rotate();
    // The key set was fetched moments ago: wait out the rate limit, then the new kid refetches it.
    Thread.sleep(RATE_LIMIT.toMillis() * 2);
    HttpResponse<String> response = post(call("ledger_whoami", "{}"), token("ledger:read"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  @Test
  void a64KilobyteTokenIs401InvalidTokenWithTheMetadataPointerNothingEchoedNothingLogged()
      throws Exception {
    // With an authenticator the embedded server takes headers up to 80 KiB (HttpOptions), so the
    // token reaches the authenticator, which refuses anything over its own limit unread
    // (IntrospectionAndApiKeysTest#aTokenOverTheSizeLimitIsRefusedUnread).
    String huge = token("ledger:read") + "A".repeat(64 * 1024);
    PrintStream err = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    HttpResponse<String> response;
    HttpResponse<String> overTheCap;
    try {
      response = post(call("ledger_whoami", "{}"), huge);
      overTheCap = post(call("ledger_whoami", "{}"),
          "B".repeat(HttpOptions.DEFAULT_MAX_HEADER_BYTES_WITH_AUTH));
    } finally {
      System.setErr(err);
    }
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .contains("Bearer resource_metadata=\"" + metadataUrl() + "\", error=\"invalid_token\"");
    assertThat(response.body() + response.headers().map()).doesNotContain("AAAAAAAA")
        .doesNotContain(huge.substring(0, 40));
    assertThat(response.body()).doesNotContain("Exception").doesNotContain("nimbus");
    // Headers over that cap are still the server's clean 431, nothing echoed.
    assertThat(overTheCap.statusCode()).isEqualTo(431);
    assertThat(overTheCap.body() + overTheCap.headers().map()).doesNotContain("BBBBBBBB")
        .doesNotContainIgnoringCase("jetty").doesNotContain("Exception");
    String log = logged.toString(StandardCharsets.UTF_8);
    assertThat(log).doesNotContain("ERROR").doesNotContain("AAAAAAAA").doesNotContain("BBBBBBBB")
        .doesNotContain(huge.substring(0, 40));
    assertThat(post(call("ledger_whoami", "{}"), token("ledger:read")).statusCode()).isEqualTo(200);
  }

  @Test
  void theHostileCorpusIs401AnonymouslyAndCleanWithAToken() throws Exception {
    // HostileCorpus (fusion-http's tests): each request anonymously, then with a valid token.
    String alice = token("ledger:read ledger:write");
    String bob = sign(claims().subject("bob").build(), keys.current());
    String session = HostileCorpus.openSession(mcp.port(), "Bearer " + alice);
    // A live session, but bob's: alice may not use it.
    String foreign = HostileCorpus.openSession(mcp.port(), "Bearer " + bob);
    Map<String, String> values = Map.of("session", session, "foreign-session", foreign,
        "tool", "ledger_post", "arg", "entry");

    PrintStream err = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    List<String> anonymous;
    List<String> admitted;
    try {
      anonymous = HostileCorpus.replayAnonymous(mcp.port(), values,
          "Bearer resource_metadata=\"" + metadataUrl() + "\"");
      admitted = HostileCorpus.replayAdmitted(mcp.port(), "Bearer " + alice, values);
    } finally {
      System.setErr(err);
    }
    assertThat(HostileCorpus.requests()).hasSizeGreaterThanOrEqualTo(50);
    assertThat(anonymous).isEmpty();
    assertThat(admitted).isEmpty();
    String log = logged.toString(StandardCharsets.UTF_8);
    assertThat(log).doesNotContain("ERROR").doesNotContain(alice).doesNotContain(bob);

    HostileCorpus.Answer good = HostileCorpus.send(mcp.port(), HostileCorpus.goodCall(), "Bearer " + alice,
        values);
    assertThat(good.status()).as(good.everything()).isEqualTo(200);
    assertThat(good.body()).contains("posted still serving by alice");
  }
}
