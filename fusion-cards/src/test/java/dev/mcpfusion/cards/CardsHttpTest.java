package dev.mcpfusion.cards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.cards.shop.ShopTools;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.http.ProtectedResource;
import dev.mcpfusion.http.PublicDocument;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The cards over HTTP: opt-in, public (no token even when the endpoint needs one), behind the same
 * Host check as the endpoint, open to every origin, cached and revalidated by ETag.
 */
class CardsHttpTest {
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  private static FusionServer server() {
    return FusionServer.builder("shop", "1.2.0").register(new ShopTools()).build();
  }

  private static HttpResponse<String> get(FusionHttpServer http, String path, String... headers)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
        .timeout(Duration.ofSeconds(10)).GET();
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theCardsAreServedPubliclyWithCacheHeadersAndAnEtag() throws Exception {
    Cards cards = CardsTest.shop();
    // a token is required at the endpoint, and none is needed for the cards
    HttpOptions options = HttpOptions.port(0).auth(headers -> false).publish(cards.documents());
    try (FusionHttpServer http = FusionHttp.serve(server(), options)) {
      HttpResponse<String> mcp = CLIENT.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + http.port() + "/mcp")).timeout(Duration.ofSeconds(10))
          .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
          .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(mcp.statusCode()).isEqualTo(401);

      for (String path : new String[] {"/mcp/server-card", "/.well-known/mcp/server-card"}) {
        HttpResponse<String> card = get(http, path);
        assertThat(card.statusCode()).as(path).isEqualTo(200);
        assertThat(card.body()).isEqualTo(cards.serverCardJson());
        assertThat(card.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(card.headers().firstValue("Cache-Control")).contains("public, max-age=3600");
        assertThat(card.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
        String etag = card.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).matches("\"[0-9a-f]{32}\"");
        HttpResponse<String> again = get(http, path, "If-None-Match", etag);
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(get(http, path, "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
      }
      HttpResponse<String> typed = get(http, "/mcp/server-card", "Accept", Cards.SERVER_CARD_MEDIA_TYPE);
      assertThat(typed.headers().firstValue("Content-Type").orElseThrow())
          .startsWith(Cards.SERVER_CARD_MEDIA_TYPE);

      HttpResponse<String> agent = get(http, "/.well-known/agent-card.json");
      assertThat(agent.statusCode()).isEqualTo(200);
      assertThat(agent.body()).isEqualTo(cards.agentCardJson());

      HttpResponse<String> head = CLIENT.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + http.port() + "/.well-known/agent-card.json"))
          .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.body()).isEmpty();
      HttpResponse<String> preflight = CLIENT.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + http.port() + "/.well-known/agent-card.json"))
          .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(preflight.statusCode()).isEqualTo(204);
      assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods"))
          .contains("GET, HEAD, OPTIONS");

      HttpResponse<String> post = CLIENT.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + http.port() + "/.well-known/agent-card.json"))
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD, OPTIONS");
    }
  }

  @Test
  void aForeignHostIsRefusedAsAtTheEndpoint() throws Exception {
    Cards cards = CardsTest.shop();
    try (FusionHttpServer http = FusionHttp.serve(server(), HttpOptions.port(0).publish(cards.documents()))) {
      String foreign = raw(http, "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: evil.example:"
          + http.port() + "\r\nConnection: close\r\n\r\n");
      assertThat(foreign).startsWith("HTTP/1.1 403");
      assertThat(foreign).doesNotContain("skills");
      String local = raw(http, "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1:"
          + http.port() + "\r\nConnection: close\r\n\r\n");
      assertThat(local).startsWith("HTTP/1.1 200").contains("\"skills\"");
    }
  }

  @Test
  void withoutPublishThereAreNoCards() throws Exception {
    try (FusionHttpServer http = FusionHttp.serve(server(), HttpOptions.port(0))) {
      assertThat(get(http, "/mcp/server-card").statusCode()).isEqualTo(404);
      assertThat(get(http, "/.well-known/agent-card.json").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void aDocumentOnATakenPathIsRefusedAtStart() {
    PublicDocument onEndpoint = new PublicDocument("/mcp", "application/json", "{}");
    assertThatThrownBy(() -> FusionHttp.serve(server(), HttpOptions.port(0).publish(onEndpoint)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'/mcp' is already served");
    PublicDocument onMetadata = new PublicDocument(ProtectedResource.WELL_KNOWN + "/mcp",
        "application/json", "{}");
    assertThatThrownBy(() -> FusionHttp.serve(server(), HttpOptions.port(0).publish(onMetadata)))
        .hasMessageContaining("is already served");
    Cards cards = CardsTest.shop();
    assertThatThrownBy(() -> FusionHttp.serve(server(),
        HttpOptions.port(0).publish(cards.serverCard(), cards.serverCard())))
        .hasMessageContaining("'/mcp/server-card' is already served");
    assertThatThrownBy(() -> new PublicDocument("cards/*", "application/json", "{}"))
        .hasMessageContaining("absolute path");
  }

  private static String raw(FusionHttpServer http, String request) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), http.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        all.write(buffer, 0, n);
      }
      return all.toString(StandardCharsets.UTF_8);
    }
  }
}
