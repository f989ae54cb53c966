package dev.mcpfusion.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mcpfusion.cards.Cards;
import dev.mcpfusion.http.PublicDocument;
import dev.mcpfusion.lock.LockProfile;
import dev.mcpfusion.spring.boot.fixtures.AuditTrail;
import dev.mcpfusion.spring.boot.fixtures.GreeterTools;
import dev.mcpfusion.spring.boot.fixtures.Member;
import dev.mcpfusion.spring.boot.fixtures.Salutations;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
 * fusion-cards' server and agent cards, declared as {@link PublicDocument} beans, served by Boot's
 * Tomcat beside the endpoint as fusion-http's own server serves them: the exact card, its ETag, a
 * revalidation, the Host check; and a document that takes a taken path stops the start.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PublishedDocumentsTest {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static ConfigurableApplicationContext app;
  private static String base;

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class CardApp {
    @Bean
    Salutations salutations() {
      return new Salutations("Hello");
    }

    @Bean
    GreeterTools greeterTools(Salutations salutations) {
      return new GreeterTools(salutations);
    }

    @Bean
    AuditTrail auditTrail() {
      return new AuditTrail("audit");
    }

    @Bean
    ContextProvider<Member> member() {
      return ContextProvider.of(Member.class, request -> new Member("anonymous"));
    }

    @Bean
    Cards cards() {
      return cardsOf();
    }

    @Bean
    PublicDocument serverCard(Cards cards) {
      return cards.serverCard();
    }

    @Bean
    PublicDocument agentCard(Cards cards) {
      return cards.agentCard();
    }
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ClashApp {
    @Bean
    Salutations salutations() {
      return new Salutations("Hello");
    }

    @Bean
    GreeterTools greeterTools(Salutations salutations) {
      return new GreeterTools(salutations);
    }

    @Bean
    AuditTrail auditTrail() {
      return new AuditTrail("audit");
    }

    @Bean
    ContextProvider<Member> member() {
      return ContextProvider.of(Member.class, request -> new Member("anonymous"));
    }

    @Bean
    PublicDocument onTheEndpoint() {
      return new PublicDocument("/mcp", "application/json", "{}");
    }
  }

  static Cards cardsOf() {
    return Cards.builder(LockProfile.defaults(), GreeterTools.class)
        .name("com.example/greeter").version("1.0.0")
        .description("Greets members by name")
        .endpoint("https://mcp.example.com/mcp")
        .build();
  }

  @BeforeAll
  static void start() {
    app = new SpringApplicationBuilder(CardApp.class)
        .properties("server.port=0", "server.address=127.0.0.1").run();
    base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void theAgentCardIsServedAtItsWellKnownPathWithAnETagThatRevalidates() throws Exception {
    HttpResponse<String> card = get(Cards.AGENT_CARD_WELL_KNOWN, null);
    assertThat(card.statusCode()).isEqualTo(200);
    assertThat(card.body()).isEqualTo(cardsOf().agentCardJson());
    assertThat(card.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
    String etag = card.headers().firstValue("ETag").orElseThrow();

    HttpResponse<String> again = get(Cards.AGENT_CARD_WELL_KNOWN, etag);
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
  }

  @Test
  void theServerCardIsServedUnderTheEndpointsPathWithItsMediaType() throws Exception {
    HttpResponse<String> card = HTTP.send(HttpRequest.newBuilder(
            URI.create(base + "/mcp" + Cards.SERVER_CARD_SUFFIX))
        .header("Accept", Cards.SERVER_CARD_MEDIA_TYPE).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(card.statusCode()).isEqualTo(200);
    assertThat(card.headers().firstValue("Content-Type").orElse(""))
        .startsWith(Cards.SERVER_CARD_MEDIA_TYPE);
    assertThat(card.body()).isEqualTo(cardsOf().serverCardJson());
  }

  @Test
  void aForeignHostIsRefusedAsAtTheEndpoint() throws Exception {
    // java.net.http refuses to set Host, so the request is written by hand.
    int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + Cards.AGENT_CARD_WELL_KNOWN + " HTTP/1.1\r\nHost: evil.example\r\n"
          + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(response).startsWith("HTTP/1.1 403");
      assertThat(response).contains("Forbidden: this Host is not allowed.");
      assertThat(response).doesNotContain("greeter");
    }
  }

  @Test
  void aDocumentOnTheEndpointsPathStopsTheStartNamingTheFix() {
    Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(ClashApp.class)
        .properties("server.port=0", "server.address=127.0.0.1").run().close());
    Throwable cause = failure;
    while (cause != null && !(cause instanceof FusionStartupException)) {
      cause = cause.getCause();
    }
    assertThat(cause).isInstanceOf(FusionStartupException.class).hasMessageContaining("'/mcp'");
    assertThat(((FusionStartupException) cause).action())
        .isEqualTo("Give each PublicDocument bean its own path.");
  }

  private static HttpResponse<String> get(String path, String ifNoneMatch) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).GET();
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
