package dev.mcpfusion.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.wire.Codes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hostile-URL corpus: every URL, DNS answer, redirect and answer here is blocked or capped
 * with a clear envelope, and no request reaches the listener on a private address (loopback,
 * which no policy here allows, except where a case names a second, explicitly allowed address).
 */
class HostileUrlCorpusTest {
  private static Listener privateListener;
  private static int port;
  private static final List<LogRecord> severe = new ArrayList<>();
  private static final Handler SEVERE = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
        severe.add(record);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeAll
  static void startThePrivateListener() {
    privateListener = Listener.on("127.0.0.1", Listener.answering(200, "{\"secret\":\"internal\"}"));
    port = privateListener.port();
    Logger.getLogger("").addHandler(SEVERE);
  }

  @AfterAll
  static void noRequestReachedThePrivateListenerAndNothingWasLoggedAtError() {
    Logger.getLogger("").removeHandler(SEVERE);
    privateListener.close();
    assertThat(privateListener.hits()).isZero();
    assertThat(severe).isEmpty();
  }

  private static StubResolver dns() {
    return new StubResolver()
        .answer("internal.example.com", "127.0.0.1")
        .answer("mixed.example.com", "93.184.215.14", "127.0.0.1")
        .answer("mixed6.example.com", "2606:4700::1111", "::1")
        .answer("meta.example.com", "169.254.169.254")
        .answer("cgnat.example.com", "100.64.1.1")
        .answer("mapped.example.com", "::ffff:10.0.0.1")
        .answer("ula.example.com", "fd12:3456::1")
        .answer("linklocal6.example.com", "fe80::1")
        .raw("empty.example.com", List.of())
        .raw("null.example.com", Arrays.asList((InetAddress) null));
  }

  private static OutboundHttp client() {
    return OutboundHttp.builder()
        .policy(UrlPolicy.defaults().allowPorts(port))
        .resolver(dns())
        .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(5))
        .build();
  }

  static Stream<Arguments> hostileUrls() {
    return Stream.of(
        // Legacy IPv4 forms, read as the OS resolver reads them.
        Arguments.of("http://127.0.0.1:P/", "non_public_address"),
        Arguments.of("http://2130706433:P/", "non_public_address"),
        Arguments.of("http://0177.0.0.1:P/", "non_public_address"),
        Arguments.of("http://0x7f.1:P/", "non_public_address"),
        Arguments.of("http://0x7f000001:P/", "non_public_address"),
        Arguments.of("http://127.1:P/", "non_public_address"),
        Arguments.of("http://127.0.1:P/", "non_public_address"),
        Arguments.of("http://0177.0x0.0.01:P/", "non_public_address"),
        Arguments.of("http://017700000001:P/", "non_public_address"),
        Arguments.of("http://127.0.0.1.:P/", "non_public_address"),
        Arguments.of("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:P/", "non_public_address"),
        Arguments.of("http://0:P/", "non_public_address"),
        Arguments.of("http://0.0.0.0:P/", "non_public_address"),
        // IPv6 loopback, unspecified, link-local, unique-local and forms embedding IPv4.
        Arguments.of("http://[::1]:P/", "non_public_address"),
        Arguments.of("http://[0:0:0:0:0:0:0:1]:P/", "non_public_address"),
        Arguments.of("http://[::]:P/", "non_public_address"),
        Arguments.of("http://[::ffff:127.0.0.1]:P/", "non_public_address"),
        Arguments.of("http://[::ffff:7f00:1]:P/", "non_public_address"),
        Arguments.of("http://[::127.0.0.1]:P/", "non_public_address"),
        Arguments.of("http://[64:ff9b::7f00:1]:P/", "non_public_address"),
        Arguments.of("http://[2002:7f00:1::]:P/", "non_public_address"),
        Arguments.of("http://[fe80::1]:P/", "non_public_address"),
        Arguments.of("http://[fe80::1%25lo]:P/", "malformed_url"),
        Arguments.of("http://[fc00::1]:P/", "non_public_address"),
        Arguments.of("http://[ff02::1]:P/", "non_public_address"),
        // Cloud metadata, private, CGNAT and reserved ranges.
        Arguments.of("http://169.254.169.254/latest/meta-data/", "non_public_address"),
        Arguments.of("http://0xa9fea9fe/latest/meta-data/", "non_public_address"),
        Arguments.of("http://2852039166/latest/meta-data/", "non_public_address"),
        Arguments.of("http://[fd00:ec2::254]/latest/meta-data/", "non_public_address"),
        Arguments.of("http://[::ffff:169.254.169.254]/", "non_public_address"),
        Arguments.of("http://100.100.100.200/latest/meta-data/", "non_public_address"),
        Arguments.of("http://168.63.129.16/machine", "non_public_address"),
        Arguments.of("http://100.64.0.1/", "non_public_address"),
        Arguments.of("http://10.0.0.1/", "non_public_address"),
        Arguments.of("http://172.16.0.1/", "non_public_address"),
        Arguments.of("http://192.168.1.1/", "non_public_address"),
        Arguments.of("http://255.255.255.255/", "non_public_address"),
        Arguments.of("http://224.0.0.1/", "non_public_address"),
        Arguments.of("http://192.0.2.1/", "non_public_address"),
        Arguments.of("http://198.18.0.1/", "non_public_address"),
        Arguments.of("http://240.0.0.1/", "non_public_address"),
        // Names whose every answer is vetted.
        Arguments.of("http://internal.example.com:P/", "non_public_address"),
        Arguments.of("http://mixed.example.com:P/", "non_public_address"),
        Arguments.of("http://mixed6.example.com:P/", "non_public_address"),
        Arguments.of("http://meta.example.com/", "non_public_address"),
        Arguments.of("http://cgnat.example.com/", "non_public_address"),
        Arguments.of("http://mapped.example.com/", "non_public_address"),
        Arguments.of("http://ula.example.com/", "non_public_address"),
        Arguments.of("http://linklocal6.example.com/", "non_public_address"),
        Arguments.of("http://nxdomain.example.com/", "dns_failed"),
        Arguments.of("http://boom.example.com/", "dns_failed"),
        Arguments.of("http://empty.example.com/", "dns_answer"),
        Arguments.of("http://null.example.com/", "dns_answer"),
        // Local names, never looked up.
        Arguments.of("http://localhost:P/", "local_name"),
        Arguments.of("http://api.localhost:P/", "local_name"),
        Arguments.of("http://metadata.google.internal/computeMetadata/v1/", "local_name"),
        Arguments.of("http://metadata/", "local_name"),
        Arguments.of("http://printer.local/", "local_name"),
        // IDNA homographs and other internationalised hosts.
        Arguments.of("http://\u0430pple.com/", "non_ascii_host"),
        Arguments.of("http://xn--pple-43d.com/", "non_ascii_host"),
        Arguments.of("http://ex\ud835\udc1ample.com/", "non_ascii_host"),
        Arguments.of("http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:P/", "non_ascii_host"),
        // Malformed and confusing URLs.
        Arguments.of("http://public.example.com@127.0.0.1:P/", "credentials"),
        Arguments.of("http://127.0.0.1:P\\@public.example.com/", "malformed_url"),
        Arguments.of("http://%31%32%37.0.0.1:P/", "malformed_url"),
        Arguments.of("http://256.0.0.1/", "malformed_url"),
        Arguments.of("http://0x100000000/", "malformed_url"),
        Arguments.of("http://1.2.3.4.5/", "malformed_url"),
        Arguments.of("http://089.0.0.1/", "malformed_url"),
        Arguments.of("http:// 127.0.0.1:P/", "malformed_url"),
        Arguments.of("file:///etc/passwd", "scheme"),
        Arguments.of("gopher://127.0.0.1:P/", "scheme"),
        Arguments.of("http://93.184.215.14:22/", "port_not_allowed"));
  }

  @ParameterizedTest(name = "{0} is refused: {1}")
  @MethodSource("hostileUrls")
  void everyHostileUrlIsRefusedBeforeAnyRequest(String url, String reason) {
    try (OutboundHttp http = client()) {
      FusionError error = catchThrowableOfType(FusionError.class, () -> http.get(url.replace("P", "" + port)));

      assertThat(error).as(url).isNotNull();
      assertThat(error.code()).isEqualTo(Codes.OUTBOUND_BLOCKED);
      assertThat(error.details()).containsEntry("reason", reason);
      assertThat(error.getMessage() + error.recovery()).doesNotContain("Exception").doesNotContain("resolver crashed");
      if (url.contains(".example.com") && !url.contains("@")) {
        // A name's answer is never told: the agent reads the host, not where it points inside.
        assertThat(error.getMessage() + error.recovery() + error.details())
            .contains(url.replaceAll("^http://([^:/]+).*$", "$1"))
            .doesNotContain("127.0.0.1", "::1", "169.254", "100.64", "10.0.0.1", "fd12", "fe80");
      }
    }
    assertThat(privateListener.hits()).isZero();
  }

  @Test
  void theCorpusHoldsAtLeastFortyUrls() {
    assertThat(hostileUrls().count()).isGreaterThanOrEqualTo(40);
  }

  @Test
  void aDnsAnswerThatChangesBetweenCheckAndConnectCannotRetargetTheSocket() {
    // The "public" address is 127.0.0.2, allowed explicitly; the later answer, 127.0.0.1, is not.
    try (Listener vetted = Listener.on("127.0.0.2", Listener.answering(200, "{\"ok\":true}"));
        Listener rebound = Listener.on("127.0.0.1", vetted.port(), Listener.answering(200, "{\"secret\":1}"))) {
      StubResolver dns = new StubResolver()
          .answerThen("rebind.example.com", new String[] {"127.0.0.2"}, new String[] {"127.0.0.1"});
      UrlPolicy policy = UrlPolicy.defaults().allowPorts(vetted.port()).allowAddresses("127.0.0.2");
      String url = "http://rebind.example.com:" + vetted.port() + "/invoices/1";
      try (OutboundHttp http = OutboundHttp.builder().policy(policy).resolver(dns).build()) {
        assertThat(http.get(url).status()).isEqualTo(200);
      }
      // One lookup, vetted and connected to: no second lookup the changed answer could slip into.
      assertThat(dns.lookups("rebind.example.com")).isEqualTo(1);
      assertThat(vetted.hits()).isEqualTo(1);
      assertThat(vetted.hosts()).containsOnly("rebind.example.com:" + vetted.port());
      assertThat(rebound.hits()).isZero();

      try (OutboundHttp fresh = OutboundHttp.builder().policy(policy).resolver(dns).build()) {
        FusionError error = catchThrowableOfType(FusionError.class, () -> fresh.get(url));
        assertThat(error.code()).isEqualTo(Codes.OUTBOUND_BLOCKED);
        assertThat(error.details()).containsEntry("reason", "non_public_address");
      }
      assertThat(rebound.hits()).isZero();
    }
  }

  static Stream<String> privateRedirects() {
    return Stream.of("http://127.0.0.1:P/admin", "http://2130706433:P/admin", "http://[::ffff:127.0.0.1]:P/",
        "http://169.254.169.254/latest/meta-data/", "http://internal.example.com:P/", "http://localhost:P/",
        "//127.0.0.1:P/admin", "file:///etc/passwd", "http://\u0430pple.com/");
  }

  @ParameterizedTest(name = "a redirect to {0} is not followed")
  @MethodSource("privateRedirects")
  void aRedirectToAPrivateTargetIsNotFollowed(String location) {
    try (Listener front = Listener.on("127.0.0.2", port,
            Listener.redirectingTo(302, location.replace("P", "" + port)));
        OutboundHttp http = OutboundHttp.builder()
            .policy(UrlPolicy.defaults().allowPorts(port).allowAddresses("127.0.0.2"))
            .resolver(dns())
            .build()) {
      FusionError error = catchThrowableOfType(FusionError.class,
          () -> http.get("http://127.0.0.2:" + port + "/invoices/1"));

      assertThat(error.code()).isEqualTo(Codes.OUTBOUND_BLOCKED);
      assertThat(error.details()).containsEntry("reason", "redirect").containsEntry("host", "127.0.0.2");
      assertThat(error.getMessage()).doesNotContain("127.0.0.1", "169.254", "localhost");
      assertThat(front.hits()).isEqualTo(1);
    }
    assertThat(privateListener.hits()).isZero();
  }

  @Test
  void aRedirectLoopStopsAtTheCap() {
    try (Listener loop = Listener.on("127.0.0.2", exchange -> {
          exchange.getResponseHeaders().add("Location", "/again");
          exchange.sendResponseHeaders(307, -1);
        });
        OutboundHttp http = OutboundHttp.builder()
            .policy(UrlPolicy.defaults().allowPorts(loop.port()).allowAddresses("127.0.0.2"))
            .build()) {
      FusionError error = catchThrowableOfType(FusionError.class,
          () -> http.get("http://127.0.0.2:" + loop.port() + "/"));

      assertThat(error.code()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
      assertThat(error.details()).containsEntry("reason", "redirects");
      assertThat(loop.hits()).isEqualTo(4);
    }
  }

  @Test
  void anOversizedAnswerWithItsLengthDeclaredIsRefused() {
    assertTooLarge(exchange -> {
      byte[] big = new byte[200_000];
      exchange.sendResponseHeaders(200, big.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(big);
      } catch (IOException aborted) {
        // The client stopped reading at its cap.
      }
    });
  }

  @Test
  void anOversizedChunkedAnswerIsCutAtTheCap() {
    assertTooLarge(exchange -> {
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        for (int i = 0; i < 100; i++) {
          out.write(new byte[4096]);
        }
      } catch (IOException aborted) {
        // The client stopped reading at its cap.
      }
    });
  }

  @Test
  void aCompressedBombIsCountedDecompressed() {
    assertTooLarge(exchange -> {
      ByteArrayOutputStream zipped = new ByteArrayOutputStream();
      try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
        gzip.write(new byte[5_000_000]);
      }
      byte[] bytes = zipped.toByteArray();
      assertThat(bytes.length).isLessThan(64 * 1024);
      exchange.getResponseHeaders().add("Content-Encoding", "gzip");
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      } catch (IOException aborted) {
        // The client stopped reading at its cap.
      }
    });
  }

  private static void assertTooLarge(Listener.Handler handler) {
    try (Listener upstream = Listener.on("127.0.0.2", handler);
        OutboundHttp http = OutboundHttp.builder()
            .policy(UrlPolicy.defaults().allowPorts(upstream.port()).allowAddresses("127.0.0.2"))
            .maxResponseBytes(64 * 1024)
            .build()) {
      FusionError error = catchThrowableOfType(FusionError.class,
          () -> http.get("http://127.0.0.2:" + upstream.port() + "/export"));

      assertThat(error.code()).isEqualTo(Codes.UPSTREAM_TOO_LARGE);
      assertThat(error.details()).containsEntry("upstream", "127.0.0.2").containsEntry("limit_bytes", "65536");
    }
  }

  @Test
  void aSlowDripAnswerHitsTheTotalDeadline() {
    // Each byte comes well within the read timeout: only the total deadline can stop this answer.
    try (Listener drip = Listener.on("127.0.0.2", exchange -> {
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < 300; i++) {
              out.write('x');
              out.flush();
              Thread.sleep(50);
            }
          } catch (IOException | InterruptedException stopped) {
            // The client gave up at its deadline.
          }
        });
        OutboundHttp http = OutboundHttp.builder()
            .policy(UrlPolicy.defaults().allowPorts(drip.port()).allowAddresses("127.0.0.2"))
            .timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(800))
            .build()) {
      FusionError error = catchThrowableOfType(FusionError.class,
          () -> http.get("http://127.0.0.2:" + drip.port() + "/slow"));

      assertThat(error.code()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
      assertThat(error.details()).containsEntry("reason", "timeout").containsEntry("upstream", "127.0.0.2");
    }
  }
}
