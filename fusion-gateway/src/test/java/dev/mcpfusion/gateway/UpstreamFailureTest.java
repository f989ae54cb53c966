package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.gateway.lab.LabMain;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.resilience.Upstream;
import dev.mcpfusion.resilience.UpstreamPolicy;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An upstream that dies, stalls, stops or never answers: an envelope naming it, never a hang. */
class UpstreamFailureTest {
  @Test
  void aProcessThatExitsMidCallIsAnEnvelopeNamingTheUpstreamAndTheNextCallStartsItAgain() {
    try (Gateway gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .build(); FusionTester tester = tester(gateway)) {
      Process first = gateway.router("lab").client().process();

      ToolResult died = tester.callTool("lab_lab_exit", Map.of());

      assertThat(died.errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
      assertThat(died.errorText())
          .contains("<message>The upstream lab stopped: its process exited before answering.</message>")
          .contains("Retry once in a few seconds. If it fails again, do not call lab's tools;")
          .contains("<detail key=\"upstream\">lab</detail>");
      ToolResult again = tester.callTool("lab_lab_echo", Map.of("text", "back"));
      assertThat(again.dataText()).isEqualTo("echo: back");
      assertThat(gateway.router("lab").client().process()).isNotSameAs(first);
    }
  }

  @Test
  void aKilledProcessIsAnEnvelopeNamingTheUpstream() throws Exception {
    try (Gateway gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .build(); FusionTester tester = tester(gateway)) {
      var pending = tester.callAsync("lab_lab_sleep", Map.of("ms", 20_000), Map.of());
      UpstreamClient client = gateway.router("lab").client();
      for (int i = 0; i < 400 && client.waiting() == 0; i++) {
        Thread.sleep(50); // until the call is in flight
      }
      assertThat(client.waiting()).as("the call reached the upstream").isEqualTo(1);
      client.process().destroyForcibly();

      ToolResult died = pending.await(Duration.ofSeconds(30)).orElseThrow();

      assertThat(died.errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
      assertThat(died.errorText()).contains("The upstream lab stopped: its process exited");
    }
  }

  @Test
  void aCallPastTheCallTimeoutIsATimeoutEnvelopeNamingTheUpstream() {
    try (Gateway gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .callTimeout(Duration.ofMillis(500)).build(); FusionTester tester = tester(gateway)) {
      ToolResult slow = tester.callTool("lab_lab_sleep", Map.of("ms", 10_000));

      assertThat(slow.errorCode()).isEqualTo("TIMEOUT");
      assertThat(slow.errorText())
          .contains("<message>The upstream lab did not answer within 500 milliseconds.</message>")
          .contains("The call may still have taken effect in lab. Check before you call lab_lab_sleep again;");
      // The upstream still serves: the stalled call was cancelled, not the session.
      assertThat(tester.callTool("lab_lab_echo", Map.of("text", "ok")).dataText()).isEqualTo("echo: ok");
    }
  }

  @Test
  void anUpstreamToolErrorIsPassedOnWithItsCodeAndRecovery() {
    try (Gateway gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .build(); FusionTester tester = tester(gateway)) {
      ToolResult refused = tester.callTool("lab_lab_refuse", Map.of());

      assertThat(refused.errorCode()).isEqualTo("CONFLICT");
      assertThat(refused.errorText())
          .contains("<message>The upstream lab answered lab_refuse with an error: The lab refuses &lt;on purpose>.</message>")
          .contains("<recovery>Ask the lab nicely.</recovery>");
    }
  }

  @Test
  void anHttpUpstreamThatStopsOpensItsCircuitWhichClosesOnceItIsBack() throws Exception {
    MutableClock clock = new MutableClock();
    FusionHttpServer lab = FusionHttp.serve(LabMain.server(), HttpOptions.port(0));
    int port = lab.port();
    try (Gateway gateway = Gateway.builder().http("lab", lab.endpoint().toString())
        .breaker(UpstreamPolicy.defaults().window(3, 3).openFor(Duration.ofSeconds(30))
            .trialCalls(1).clock(clock))
        .build(); FusionTester tester = tester(gateway)) {
      assertThat(tester.callTool("lab_lab_echo", Map.of("text", "up")).dataText()).isEqualTo("echo: up");
      lab.close();

      for (int i = 0; i < 2; i++) {
        ToolResult down = tester.callTool("lab_lab_echo", Map.of("text", "down"));
        assertThat(down.errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
        assertThat(down.errorText()).contains("The upstream lab could not be reached.");
      }
      Upstream breaker = gateway.router("lab").breaker();
      assertThat(breaker.state()).isEqualTo(Upstream.State.OPEN);
      ToolResult refused = tester.callTool("lab_lab_echo", Map.of("text", "down"));
      assertThat(refused.errorText())
          .contains("The upstream lab is unavailable: its recent calls failed, so calls to it are paused.")
          .contains("<detail key=\"circuit\">open</detail>")
          .contains("<retry_after>30 seconds</retry_after>");

      lab = FusionHttp.serve(LabMain.server(), HttpOptions.port(port));
      clock.advance(Duration.ofSeconds(31));
      ToolResult back = tester.callTool("lab_lab_echo", Map.of("text", "back"));
      assertThat(back.dataText()).isEqualTo("echo: back");
      assertThat(breaker.state()).isEqualTo(Upstream.State.CLOSED);
    } finally {
      lab.close();
    }
  }

  @Test
  void anUnreachableUpstreamAtStartIsNamed() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    assertThatThrownBy(() -> Gateway.builder().http("crm", "http://127.0.0.1:" + port + "/mcp")
        .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The gateway cannot start upstream crm (url http://127.0.0.1:" + port
            + "/mcp): The upstream crm could not be reached. Check that it runs, or remove it"
            + " from the gateway.");
  }

  @Test
  @Timeout(60)
  void anUpstreamThatAcceptsButNeverAnswersHitsTheConnectTimeout() throws Exception {
    List<Socket> held = new ArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            held.add(silent.accept());
          }
        } catch (IOException closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      assertThatThrownBy(() -> Gateway.builder()
          .http("crm", "http://127.0.0.1:" + silent.getLocalPort() + "/mcp")
          .connectTimeout(Duration.ofMillis(300)).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("The upstream crm did not complete its handshake within 300 milliseconds.");
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  private static FusionTester tester(Gateway gateway) {
    return FusionTester.of(gateway.register(FusionServer.builder("gateway", "1.0.0")));
  }

  /** A clock the test moves by hand. */
  static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-12-01T10:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
