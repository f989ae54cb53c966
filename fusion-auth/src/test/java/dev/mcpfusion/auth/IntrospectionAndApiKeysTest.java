package dev.mcpfusion.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.http.Authentication;
import dev.mcpfusion.http.HttpAuthenticator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opaque tokens through an RFC 7662 introspection endpoint (OkHttp's mock web server, which comes
 * with the test authorization server, answering as an authorization server would), and API keys
 * from a file of hashes.
 */
class IntrospectionAndApiKeysTest {
  static final String RESOURCE = "https://mcp.example.test/mcp";

  MockWebServer introspection;
  final AtomicInteger asked = new AtomicInteger();
  final List<String> authorizations = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    introspection = new MockWebServer();
    introspection.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        asked.incrementAndGet();
        authorizations.add(request.getHeader("Authorization"));
        String form = request.getBody().readUtf8();
        long exp = System.currentTimeMillis() / 1000 + 60;
        String answer = switch (form.replaceAll(".*token=([^&]*).*", "$1")) {
          case "opaque-good" -> "{\"active\":true,\"sub\":\"carol\",\"client_id\":\"c1\",\"scope\":\"ledger:read\","
              + "\"aud\":[\"" + RESOURCE + "\"],\"exp\":" + exp + "}";
          case "opaque-other-audience" -> "{\"active\":true,\"sub\":\"carol\",\"aud\":\"https://other.test\","
              + "\"exp\":" + exp + "}";
          case "opaque-expired" -> "{\"active\":true,\"sub\":\"carol\",\"aud\":\"" + RESOURCE + "\",\"exp\":1}";
          case "opaque-server-error", "opaque-busy", "opaque-rate-limited", "opaque-busy-until-a-date" -> null;
          default -> "{\"active\":false}";
        };
        if (form.contains("token=opaque-busy-until-a-date")) {
          return new MockResponse().setResponseCode(503).addHeader("Retry-After", "Wed, 21 Oct 2037 07:28:00 GMT");
        }
        if (form.contains("token=opaque-busy")) {
          return new MockResponse().setResponseCode(503).addHeader("Retry-After", "42");
        }
        if (form.contains("token=opaque-rate-limited")) {
          return new MockResponse().setResponseCode(429).addHeader("Retry-After", "7");
        }
        if (answer == null) {
          return new MockResponse().setResponseCode(503);
        }
        return new MockResponse().setResponseCode(200).addHeader("Content-Type", "application/json")
            .setBody(answer);
      }
    });
    introspection.start(java.net.InetAddress.getLoopbackAddress(), 0);
  }

  @AfterEach
  void stop() throws IOException {
    introspection.shutdown();
  }

  private HttpAuthenticator introspecting(Duration maxAge) {
    return OAuth.apiKeysOnly(ApiKeys.parse(List.of(), "none")).resource(RESOURCE)
        .introspection(introspection.url("/introspect").toString(),
            "rs-client", "rs-secret")
        .introspectionCache(maxAge, 100)
        .authenticator();
  }

  private static Map<String, String> bearer(String token) {
    return Map.of("authorization", "Bearer " + token);
  }

  @Test
  void anActiveTokenIsTheCallerTheAnswerNamesAndIsCachedForItsLifetime() {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    Authentication first = auth.verify(bearer("opaque-good"));
    assertThat(first.isAccepted()).isTrue();
    assertThat(first.caller().subject()).contains("carol");
    assertThat(first.caller().clientId()).contains("c1");
    assertThat(first.caller().scopes()).containsExactly("ledger:read");
    assertThat(auth.verify(bearer("opaque-good")).caller()).isEqualTo(first.caller());
    assertThat(asked.get()).isEqualTo(1);
    assertThat(authorizations.get(0)).isEqualTo("Basic cnMtY2xpZW50OnJzLXNlY3JldA==");
  }

  @Test
  void aZeroCacheAgeAsksEveryTime() {
    HttpAuthenticator auth = introspecting(Duration.ZERO);
    auth.verify(bearer("opaque-good"));
    auth.verify(bearer("opaque-good"));
    assertThat(asked.get()).isEqualTo(2);
  }

  @Test
  void inactiveExpiredAndForeignTokensAreInvalid() {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    for (String token : List.of("opaque-inactive", "opaque-other-audience", "opaque-expired")) {
      Authentication verdict = auth.verify(bearer(token));
      assertThat(verdict.isAccepted()).as(token).isFalse();
      assertThat(verdict.invalidToken()).as(token).isTrue();
    }
    assertThat(auth.verify(Map.of()).invalidToken()).isFalse();
  }

  @Test
  void anUnreachableEndpointIsUnavailableNotARefusal() throws IOException {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    introspection.shutdown();
    Authentication verdict = auth.verify(bearer("opaque-good"));
    assertThat(verdict.isAccepted()).isFalse();
    assertThat(verdict.invalidToken()).isFalse();
    assertThat(verdict.isUnavailable()).isTrue();
    assertThat(verdict.retryAfterSeconds()).isEqualTo(Unavailable.RETRY_AFTER.toSeconds());
  }

  @Test
  void anEndpointAnswering5xxIsUnavailableAndThatIsNotCached() {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    assertThat(auth.verify(bearer("opaque-server-error")).isUnavailable()).isTrue();
    assertThat(auth.verify(bearer("opaque-server-error")).isUnavailable()).isTrue();
    assertThat(asked.get()).isEqualTo(2);
  }

  @Test
  void aBusyEndpointsOwnRetryAfterIsPassedOnAndA429IsNoRefusal() {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    Authentication busy = auth.verify(bearer("opaque-busy"));
    assertThat(busy.isUnavailable()).isTrue();
    assertThat(busy.retryAfterSeconds()).isEqualTo(42);
    // Rate-limited is not "invalid": a client told so would throw its good token away.
    Authentication limited = auth.verify(bearer("opaque-rate-limited"));
    assertThat(limited.isUnavailable()).isTrue();
    assertThat(limited.invalidToken()).isFalse();
    assertThat(limited.retryAfterSeconds()).isEqualTo(7);
    // A 5xx that names no delay in seconds gets the fixed pacing (no window here to derive one from).
    assertThat(auth.verify(bearer("opaque-busy-until-a-date")).retryAfterSeconds())
        .isEqualTo(Unavailable.RETRY_AFTER.toSeconds());
    assertThat(auth.verify(bearer("opaque-server-error")).retryAfterSeconds())
        .isEqualTo(Unavailable.RETRY_AFTER.toSeconds());
  }

  @Test
  void aRefusedTokenIsAskedAboutOnceWhileItsRefusalIsCached() {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    for (int i = 0; i < 50; i++) {
      assertThat(auth.verify(bearer("opaque-inactive")).invalidToken()).isTrue();
      assertThat(auth.verify(bearer("opaque-other-audience")).invalidToken()).isTrue();
    }
    assertThat(asked.get()).isEqualTo(2);
    // A good token is still asked about (and cached) on its own.
    assertThat(auth.verify(bearer("opaque-good")).isAccepted()).isTrue();
    assertThat(asked.get()).isEqualTo(3);
  }

  @Test
  void aRefusalIsKeptNoLongerThanTheCacheAge() throws InterruptedException {
    HttpAuthenticator auth = introspecting(Duration.ofMillis(200));
    auth.verify(bearer("opaque-inactive"));
    auth.verify(bearer("opaque-inactive"));
    assertThat(asked.get()).isEqualTo(1);
    Thread.sleep(400);
    auth.verify(bearer("opaque-inactive"));
    assertThat(asked.get()).isEqualTo(2);
    // With no cache at all, every refusal is asked again.
    HttpAuthenticator uncached = introspecting(Duration.ZERO);
    uncached.verify(bearer("opaque-inactive"));
    uncached.verify(bearer("opaque-inactive"));
    assertThat(asked.get()).isEqualTo(4);
  }

  @Test
  void apiKeysAreReadFromAFileOfHashesAndAcceptedInEitherHeader(@TempDir Path dir) throws IOException {
    String key = ApiKeys.generate();
    Path file = dir.resolve("keys");
    Files.writeString(file, "# reporting\n" + ApiKeys.hash(key) + "  report-bot  ledger:read\n\n");
    assertThat(Files.readString(file)).doesNotContain(key);
    HttpAuthenticator auth = OAuth.apiKeysOnly(ApiKeys.load(file)).resource(RESOURCE).authenticator();

    Caller expected = Caller.of("report-bot", List.of("ledger:read"));
    assertThat(auth.verify(bearer(key)).caller()).isEqualTo(expected);
    assertThat(auth.verify(Map.of("x-api-key", key)).caller()).isEqualTo(expected);
    assertThat(auth.verify(bearer(key + "x")).invalidToken()).isTrue();
    assertThat(auth.verify(Map.of("x-api-key", "nope")).invalidToken()).isTrue();
    assertThat(auth.protectedResource()).isNull();
  }

  @Test
  void aKeyFileLineThatIsNoHashNamesTheLine() {
    assertThatThrownBy(() -> ApiKeys.parse(List.of("# keys", "my-plain-key bot"), "keys.txt"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("keys.txt:2: expected 'sha256:<64 hex digits> subject [scope ...]'")
        .hasMessageNotContaining("my-plain-key");
  }

  @Test
  void aTokenOverTheSizeLimitIsRefusedUnread() {
    HttpAuthenticator auth = introspecting(Duration.ofMinutes(5));
    assertThat(auth.verify(bearer("x".repeat(64 * 1024))).invalidToken()).isTrue();
    assertThat(asked.get()).isZero();
  }
}
