package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded server's cap on request headers: Jetty's 8 KiB without auth, room for a 64 KiB
 * token with an authenticator (so the authenticator, not the container, refuses it: {@code 401}
 * with its challenge), a set cap when one is set; beyond the cap a clean {@code 431} that echoes
 * nothing.
 */
class RequestHeaderLimitTest {
  static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
      + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  FusionHttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private FusionHttpServer start(HttpOptions options) {
    server = FusionHttp.serve(FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from).build(), options.stopOnShutdownSignal(false));
    return server;
  }

  private static HttpResponse<String> post(FusionHttpServer server, String header, String value)
      throws Exception {
    return HTTP.send(HttpRequest.newBuilder(server.endpoint()).timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/list")
        .header(header, value)
        .POST(HttpRequest.BodyPublishers.ofString(LIST)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertCleanRefusal(HttpResponse<String> response, String marker) {
    assertThat(response.statusCode()).isEqualTo(431);
    assertThat(response.body() + response.headers().map()).doesNotContain(marker)
        .doesNotContainIgnoringCase("jetty").doesNotContain("Exception");
    assertThat(response.headers().firstValue("Server")).isEmpty();
  }

  @Test
  void theDefaultsDependOnWhetherAnAuthenticatorIsSetAndASetCapWins() {
    assertThat(HttpOptions.defaults().maxHeaderBytes()).isEqualTo(8 * 1024);
    HttpOptions guarded = HttpOptions.defaults().auth(HttpAuthenticator.bearer("s3cret"));
    assertThat(guarded.maxHeaderBytes()).isEqualTo(80 * 1024);
    assertThat(guarded.maxHeaderBytes(16_384).maxHeaderBytes()).isEqualTo(16_384);
    assertThat(HttpOptions.defaults().maxHeaderBytes(16_384).auth(HttpAuthenticator.bearer("s3cret"))
        .maxHeaderBytes()).isEqualTo(16_384);
    assertThatThrownBy(() -> HttpOptions.defaults().maxHeaderBytes(1023))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1024");
  }

  @Test
  void withoutAuthHeadersOverEightKibibytesAreACleanRefusal() throws Exception {
    FusionHttpServer open = start(HttpOptions.port(0));
    String value = "q".repeat(9 * 1024);
    assertCleanRefusal(post(open, "X-Big", value), "qqqqqqqq");
    assertThat(post(open, "X-Small", "q".repeat(4 * 1024)).statusCode()).isEqualTo(200);
  }

  @Test
  void withAnAuthenticatorA64KibibyteTokenReachesItAndIsRefusedWithItsChallenge() throws Exception {
    FusionHttpServer guarded = start(HttpOptions.port(0).auth(HttpAuthenticator.bearer("s3cret")));
    String token = "t".repeat(64 * 1024);
    HttpResponse<String> response = post(guarded, "Authorization", "Bearer " + token);
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
        challenge -> assertThat(challenge).startsWith("Bearer"));
    assertThat(response.body() + response.headers().map()).doesNotContain("tttttttt");
    // The connection's next request is served as usual.
    assertThat(post(guarded, "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);
  }

  @Test
  void withAnAuthenticatorHeadersJustOverTheCapAreACleanRefusal() throws Exception {
    FusionHttpServer guarded = start(HttpOptions.port(0).auth(HttpAuthenticator.bearer("s3cret")));
    assertCleanRefusal(post(guarded, "Authorization",
        "Bearer " + "u".repeat(HttpOptions.DEFAULT_MAX_HEADER_BYTES_WITH_AUTH)), "uuuuuuuu");
    assertThat(post(guarded, "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);
  }

  @Test
  void aSetCapIsTheOneApplied() throws Exception {
    FusionHttpServer guarded = start(HttpOptions.port(0).maxHeaderBytes(16 * 1024)
        .auth(HttpAuthenticator.bearer("s3cret")));
    assertThat(post(guarded, "Authorization", "Bearer " + "v".repeat(12 * 1024)).statusCode()).isEqualTo(401);
    assertCleanRefusal(post(guarded, "Authorization", "Bearer " + "v".repeat(17 * 1024)), "vvvvvvvv");
  }
}
