package dev.mcpfusion.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.resilience.Upstreams;
import dev.mcpfusion.resilience.UpstreamPolicy;
import dev.mcpfusion.wire.Codes;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OutboundHttpTest {
  private static UrlPolicy loopbackTwo(Listener... listeners) {
    UrlPolicy policy = UrlPolicy.defaults().allowAddresses("127.0.0.2", "127.0.0.3");
    for (Listener listener : listeners) {
      policy = policy.allowPorts(listener.port());
    }
    return policy;
  }

  @Test
  void aCallReachesItsVettedHostWithTheUrlsHostHeader() {
    StubResolver dns = new StubResolver().answer("api.example.com", "127.0.0.2");
    try (Listener upstream = Listener.on("127.0.0.2", Listener.answering(200, "{\"id\":\"inv_1\"}"));
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(upstream)).resolver(dns).build()) {
      OutboundResponse response = http.send(OutboundRequest.get("http://api.example.com:" + upstream.port() + "/invoices/inv_1?expand=lines")
          .header("Authorization", "Bearer t0k3n"));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.isSuccessful()).isTrue();
      assertThat(response.bodyText()).isEqualTo("{\"id\":\"inv_1\"}");
      assertThat(response.header("Content-Type")).isEqualTo("application/json");
      assertThat(upstream.hosts()).containsExactly("api.example.com:" + upstream.port());
      assertThat(upstream.authorizations()).containsExactly("Bearer t0k3n");
      assertThat(upstream.requests()).containsExactly("GET /invoices/inv_1?expand=lines ");
    }
  }

  @Test
  void aNon2xxAnswerIsReturnedAsIs() {
    try (Listener upstream = Listener.on("127.0.0.2", Listener.answering(404, "{\"error\":\"no such invoice\"}"));
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(upstream)).build()) {
      OutboundResponse response = http.get("http://127.0.0.2:" + upstream.port() + "/invoices/nope");

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.isSuccessful()).isFalse();
      assertThat(response.bodyText()).contains("no such invoice");
    }
  }

  @Test
  void aPostSendsItsBodyAndA303BecomesAGetWithoutIt() {
    try (Listener target = Listener.on("127.0.0.2", Listener.answering(200, "{}"));
        Listener front = Listener.on("127.0.0.2",
            Listener.redirectingTo(303, "http://127.0.0.2:" + target.port() + "/invoices/inv_9"));
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(front, target)).build()) {
      OutboundResponse response = http.send(OutboundRequest.post("http://127.0.0.2:" + front.port() + "/invoices",
          "{\"amount\":5}", "application/json"));

      assertThat(response.status()).isEqualTo(200);
      assertThat(front.requests()).containsExactly("POST /invoices {\"amount\":5}");
      assertThat(target.requests()).containsExactly("GET /invoices/inv_9 ");
    }
  }

  @Test
  void aRedirectToAnotherHostCarriesNoneOfTheCallersHeaders() {
    try (Listener other = Listener.on("127.0.0.3", Listener.answering(200, "{}"));
        Listener front = Listener.on("127.0.0.2",
            Listener.redirectingTo(307, "http://127.0.0.3:" + other.port() + "/elsewhere"));
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(front, other)).build()) {
      http.send(OutboundRequest.get("http://127.0.0.2:" + front.port() + "/").header("Authorization", "Bearer secret"));

      assertThat(front.authorizations()).containsExactly("Bearer secret");
      assertThat(other.authorizations()).containsExactly("null");
    }
  }

  @Test
  void withRedirectsOffARedirectIsTheAnswer() {
    try (Listener front = Listener.on("127.0.0.2", Listener.redirectingTo(302, "http://127.0.0.1/admin"));
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(front)).maxRedirects(0).build()) {
      OutboundResponse response = http.get("http://127.0.0.2:" + front.port() + "/");

      assertThat(response.status()).isEqualTo(302);
      assertThat(response.header("location")).isEqualTo("http://127.0.0.1/admin");
    }
  }

  @Test
  void anUpstreamThatRefusesConnectionsIsUnavailableNamingTheHost() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.2"))) {
      closed = socket.getLocalPort();
    }
    try (OutboundHttp http = OutboundHttp.builder()
        .policy(UrlPolicy.defaults().allowAddresses("127.0.0.2").allowPorts(closed)).build()) {
      FusionError error = catchThrowableOfType(FusionError.class, () -> http.get("http://127.0.0.2:" + closed + "/"));

      assertThat(error.code()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
      assertThat(error.details()).containsEntry("upstream", "127.0.0.2").containsEntry("reason", "connection");
      assertThat(error.getMessage() + error.recovery()).doesNotContain("Exception", "refused");
    }
  }

  @Test
  void theBreakerOpensOnFailingAnswersAndRefusesWithoutCalling() {
    Upstreams upstreams = Upstreams.create(UpstreamPolicy.defaults().window(2, 2).openFor(Duration.ofMinutes(1)));
    try (Listener failing = Listener.on("127.0.0.2", Listener.answering(503, "{\"error\":\"down\"}"));
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(failing)).breakers(upstreams).build()) {
      String url = "http://127.0.0.2:" + failing.port() + "/";
      assertThat(http.get(url).status()).isEqualTo(503);
      assertThat(http.get(url).status()).isEqualTo(503);

      FusionError error = catchThrowableOfType(FusionError.class, () -> http.get(url));

      assertThat(error.code()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
      assertThat(error.details()).containsEntry("upstream", "127.0.0.2").containsEntry("circuit", "open");
      assertThat(failing.hits()).isEqualTo(2);
    }
  }

  @Test
  void aRefusedUrlNeverCountsAgainstTheBreaker() {
    Upstreams upstreams = Upstreams.create(UpstreamPolicy.defaults().window(2, 2));
    StubResolver dns = new StubResolver().answer("inside.example.com", "10.0.0.1");
    try (OutboundHttp http = OutboundHttp.builder().resolver(dns).breakers(upstreams).build()) {
      for (int i = 0; i < 5; i++) {
        FusionError error = catchThrowableOfType(FusionError.class, () -> http.get("https://inside.example.com/"));
        assertThat(error.code()).isEqualTo(Codes.OUTBOUND_BLOCKED);
      }
      assertThat(upstreams.upstream("inside.example.com").state()).isEqualTo(dev.mcpfusion.resilience.Upstream.State.CLOSED);
    }
  }

  @Test
  void theDefaultCapReadsOneMebibyteAndNotOneByteMore() {
    try (Listener exact = Listener.on("127.0.0.2", exchange -> {
          int size = exchange.getRequestURI().getPath().equals("/exact") ? 1024 * 1024 : 1024 * 1024 + 1;
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(new byte[size]);
          } catch (java.io.IOException aborted) {
            // The client stopped at its cap.
          }
        });
        OutboundHttp http = OutboundHttp.builder().policy(loopbackTwo(exact)).build()) {
      assertThat(http.get("http://127.0.0.2:" + exact.port() + "/exact").body()).hasSize(1024 * 1024);
      FusionError error = catchThrowableOfType(FusionError.class, () -> http.get("http://127.0.0.2:" + exact.port() + "/over"));
      assertThat(error.code()).isEqualTo(Codes.UPSTREAM_TOO_LARGE);
      assertThat(error.details()).containsEntry("limit_bytes", "1048576");
    }
  }

  @Test
  void theDefaultTimeoutsAre5And10And30Seconds() {
    try (OutboundHttp http = OutboundHttp.create()) {
      assertThat(http.okhttp().connectTimeoutMillis()).isEqualTo(5_000);
      assertThat(http.okhttp().readTimeoutMillis()).isEqualTo(10_000);
      assertThat(http.okhttp().callTimeoutMillis()).isEqualTo(30_000);
      assertThat(http.okhttp().proxy()).isEqualTo(java.net.Proxy.NO_PROXY);
      assertThat(http.okhttp().followRedirects()).isFalse();
    }
  }

  @Test
  void aRequestCannotSetTheHostOrFramingHeaders() {
    assertThatThrownBy(() -> OutboundRequest.get("https://api.example.com/").header("Host", "127.0.0.1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Host");
    assertThatThrownBy(() -> OutboundRequest.get("https://api.example.com/").header("Transfer-Encoding", "chunked"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OutboundRequest.of("TRACE", "https://api.example.com/", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TRACE");
  }
}
