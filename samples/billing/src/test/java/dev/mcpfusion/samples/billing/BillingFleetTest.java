package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.redis.LocalRedis;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --redis URL}: two billing processes on one Redis serve each other's 2025-era sessions; a
 * wrong use of the option is a clear usage error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BillingFleetTest {
  @RegisterExtension
  static final LocalRedis REDIS = new LocalRedis();

  private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
      + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
      + "\"clientInfo\":{\"name\":\"fleet\",\"version\":\"1\"}}}";

  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : processes) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private Process start(Path stderr, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), BillingMain.class.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    processes.add(process);
    return process;
  }

  /** Starts one instance on a free port; its endpoint, read off its stderr. */
  private String instance(String... more) throws Exception {
    Path stderr = Files.createTempFile("billing-fleet", ".log");
    List<String> args = new ArrayList<>(List.of("--http", "0", "--redis", REDIS.url()));
    args.addAll(List.of(more));
    Process process = start(stderr, args.toArray(String[]::new));
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      Matcher m = LISTENING.matcher(Files.readString(stderr));
      if (m.find()) {
        return m.group(1);
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the instance did not start; stderr:\n" + Files.readString(stderr));
  }

  private HttpResponse<String> post(String endpoint, String body, String... headers) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(endpoint)).timeout(Duration.ofSeconds(30));
    if (headers.length > 0) {
      builder.headers(headers);
    }
    return http.send(builder.header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void twoInstancesOnOneRedisServeEachOthersSessions() throws Exception {
    String a = instance();
    String b = instance();

    HttpResponse<String> initialized = post(a, INITIALIZE);
    assertThat(initialized.statusCode()).isEqualTo(200);
    String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();

    HttpResponse<String> onB = post(b, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
        + "\"params\":{\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0001\"}}}",
        "Mcp-Session-Id", session);
    assertThat(onB.statusCode()).isEqualTo(200);
    assertThat(onB.body()).contains("INV-0001").doesNotContain("\"isError\":true");
  }

  @Test
  void aRateLimitIsCountedAcrossTheFleetAndTellsTheAgentWhenToRetry() throws Exception {
    REDIS.flushAll();
    String a = instance("--rate-limit", "2/30s");
    String b = instance("--rate-limit", "2/30s");
    HttpResponse<String> initialized = post(a, INITIALIZE);
    String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
    String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
        + "\"name\":\"billing_get_invoice\",\"arguments\":{\"id\":\"INV-0001\"}}}";

    assertThat(post(a, call, "Mcp-Session-Id", session).body()).contains("INV-0001")
        .doesNotContain("\"isError\":true");
    assertThat(post(b, call, "Mcp-Session-Id", session).body()).contains("INV-0001")
        .doesNotContain("\"isError\":true");
    String refused = post(a, call, "Mcp-Session-Id", session).body();

    assertThat(refused).contains("<tool_error code=\\\"SERVER_BUSY\\\"",
        "The server is busy: it takes at most 2 calls per 30 seconds from each caller across its"
            + " instances, and 2 came from this caller in the last 30 seconds.", "<retry_after>",
        "\"isError\":true");
  }

  @Test
  void aMalformedRateLimitOrOneWithoutRedisIsAUsageError() throws Exception {
    Path malformed = Files.createTempFile("billing-fleet", ".log");
    Process bad = start(malformed, "--http", "0", "--redis", REDIS.url(), "--rate-limit", "0/1s");
    assertThat(bad.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(bad.exitValue()).isEqualTo(2);
    assertThat(Files.readString(malformed)).startsWith("--rate-limit needs N/PERIOD: at most N calls"
        + " (1 to 99999) per PERIOD for each caller, the period in seconds or minutes (e.g. 100/1m,"
        + " 5/10s).");

    Path withoutRedis = Files.createTempFile("billing-fleet", ".log");
    Process alone = start(withoutRedis, "--http", "0", "--rate-limit", "5/10s");
    assertThat(alone.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(alone.exitValue()).isEqualTo(2);
    assertThat(Files.readString(withoutRedis)).startsWith("--rate-limit needs --redis:");
  }

  @Test
  void redisWithoutHttpOrAnUnreachableRedisIsAUsageError() throws Exception {
    Path withoutHttp = Files.createTempFile("billing-fleet", ".log");
    Process stdio = start(withoutHttp, "--redis", REDIS.url());
    assertThat(stdio.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(stdio.exitValue()).isEqualTo(2);
    assertThat(Files.readString(withoutHttp)).startsWith("--redis needs --http:");

    Path unreachable = Files.createTempFile("billing-fleet", ".log");
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Process down = start(unreachable, "--http", "0", "--redis", "redis://127.0.0.1:" + closedPort);
    assertThat(down.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(down.exitValue()).isEqualTo(2);
    assertThat(Files.readString(unreachable)).contains("Could not connect to Redis at 127.0.0.1:"
        + closedPort + "; check that it runs and the URL is right");
  }
}
