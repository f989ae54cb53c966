package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.gateway.UpstreamFailureTest.MutableClock;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gateway's caller sessions: a cap and idle eviction, each refused in words an agent can act on. */
class CallerSessionsTest {
  private final MutableClock clock = new MutableClock();
  private Gateway gateway;

  @BeforeEach
  void start() {
    gateway = Gateway.builder().stdio("lab", TestServers.java(TestServers.LAB_MAIN))
        .sessions(2, Duration.ofMinutes(1)).clock(clock).build();
  }

  @AfterEach
  void stop() {
    gateway.close();
  }

  @Test
  void aSessionBeyondTheCapIsRefusedUntilAnIdleOneCloses() {
    try (FusionTester alice = tester("alice"); FusionTester bob = tester("bob");
        FusionTester carol = tester("carol")) {
      assertThat(alice.callTool("lab_lab_echo", Map.of("text", "a")).isSuccess()).isTrue();
      clock.advance(Duration.ofSeconds(20));
      assertThat(bob.callTool("lab_lab_echo", Map.of("text", "b")).isSuccess()).isTrue();

      ToolResult refused = carol.callTool("lab_lab_echo", Map.of("text", "c"));

      assertThat(refused.errorCode()).isEqualTo("SERVER_BUSY");
      assertThat(refused.errorText()).isEqualTo("""
          <tool_error code="SERVER_BUSY" severity="error">
          <message>The gateway already serves 2 sessions, its limit, so it cannot open one for you now.</message>
          <recovery>Retry after the time below, when an idle session will have closed. If this keeps happening, tell the user the gateway is at capacity.</recovery>
          <details>
            <detail key="limit">2</detail>
          </details>
          <retry_after>40 seconds</retry_after>
          </tool_error>""");
      clock.advance(Duration.ofSeconds(41));
      assertThat(carol.callTool("lab_lab_echo", Map.of("text", "c")).isSuccess()).isTrue();
    }
  }

  @Test
  void anIdleSessionIsClosedAndItsNextCallIsToldItsStateIsGone() {
    try (FusionTester dave = tester("dave")) {
      assertThat(dave.callTool("lab_lab_echo", Map.of("text", "d")).isSuccess()).isTrue();
      clock.advance(Duration.ofMinutes(2));

      ToolResult expired = dave.callTool("lab_lab_echo", Map.of("text", "d"));

      assertThat(expired.errorCode()).isEqualTo("SESSION_EXPIRED");
      assertThat(expired.errorText()).isEqualTo("""
          <tool_error code="SESSION_EXPIRED" severity="error">
          <message>Your gateway session sat idle for more than 1 minute and was closed: what it held, such as a handoff under way and the state it carried, is gone.</message>
          <recovery>Call the tool again: a new session starts with that call. If you were working with a specialist through a handoff, hand off again.</recovery>
          </tool_error>""");
      assertThat(dave.callTool("lab_lab_echo", Map.of("text", "d")).dataText()).isEqualTo("echo: d");
    }
  }

  private FusionTester tester(String subject) {
    return FusionTester.of(gateway.register(FusionServer.builder("gateway", "1.0.0")))
        .caller(Caller.of(subject, List.of()));
  }
}
