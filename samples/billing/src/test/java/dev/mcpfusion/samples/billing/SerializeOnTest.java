package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.samples.billing.fixtures.AsyncTools;
import dev.mcpfusion.samples.billing.fixtures.AsyncTools.Note;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.PendingCall;
import dev.mcpfusion.testing.ToolResult;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code @SerializeOn}: calls naming the same entity run one at a time (an async call holds its key
 * until its stage completes), calls naming different ones in parallel, and a call past the key's
 * queue is {@code SERVER_BUSY} with a retry hint. In both protocol eras.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SerializeOnTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static ToolResult done(PendingCall call) {
    return call.await(WAIT).orElseThrow(() -> new AssertionError("no reply"));
  }

  private static Map<String, Object> args(String note, String id) {
    return Map.of("note", note, "id", id);
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void callsWithTheSameKeyRunOneAtATimeUntilTheStageCompletes(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      PendingCall first = tester.callAsync("later_void_note", args("n-1", "a"), Map.of());
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("a");
      PendingCall second = tester.callAsync("later_void_note", args("n-1", "b"), Map.of());
      // The second call's handler waits for the first call's stage.
      assertThat(tools.started.poll(300, TimeUnit.MILLISECONDS)).isNull();

      tools.future("a").complete(new Note("n-1", "voided", "x"));
      assertThat(done(first).isSuccess()).isTrue();
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("b");
      tools.future("b").complete(new Note("n-1", "voided again", "x"));
      assertThat(done(second).isSuccess()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void callsWithDifferentKeysRunInParallel(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      PendingCall first = tester.callAsync("later_void_note", args("n-1", "a"), Map.of());
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("a");
      PendingCall other = tester.callAsync("later_void_note", args("n-2", "c"), Map.of());
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("c");

      tools.future("c").complete(new Note("n-2", "voided", "x"));
      assertThat(done(other).isSuccess()).isTrue();
      tools.future("a").complete(new Note("n-1", "voided", "x"));
      assertThat(done(first).isSuccess()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void pastTheKeysQueueACallIsServerBusy(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      PendingCall running = tester.callAsync("later_void_note", args("n-1", "a"), Map.of());
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("a");
      PendingCall waiting = tester.callAsync("later_void_note", args("n-1", "b"), Map.of());
      assertThat(tools.started.poll(300, TimeUnit.MILLISECONDS)).isNull();

      ToolResult busy = tester.call("later", "void_note", args("n-1", "d"));
      assertThat(busy.errorText()).isEqualTo("""
          <tool_error code="SERVER_BUSY" severity="error">
          <message>[later/void_note] The server is busy: calls with the same note run one at a time, and 1 already wait for this one.</message>
          <recovery>Wait a moment, then call the tool again with the same arguments.</recovery>
          <retry_after>1 second</retry_after>
          </tool_error>""");
      assertThat(busy.retryAfterSeconds()).isEqualTo(1L);
      // Another note is not held up by the full queue.
      PendingCall other = tester.callAsync("later_void_note", args("n-2", "e"), Map.of());
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("e");

      tools.future("a").complete(new Note("n-1", "1", "x"));
      tools.future("b").complete(new Note("n-1", "2", "x"));
      tools.future("e").complete(new Note("n-2", "3", "x"));
      assertThat(done(running).isSuccess()).isTrue();
      assertThat(done(waiting).isSuccess()).isTrue();
      assertThat(done(other).isSuccess()).isTrue();
      assertThat(tools.futures).doesNotContainKey("d");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void blockingHandlersWithTheSameKeyTakeTurnsToo(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      CountDownLatch releaseA = tools.releases.computeIfAbsent("a", k -> new CountDownLatch(1));
      CountDownLatch releaseB = tools.releases.computeIfAbsent("b", k -> new CountDownLatch(1));
      PendingCall first = tester.callAsync("later_archive", args("n-1", "a"), Map.of());
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("a");
      PendingCall second = tester.callAsync("later_archive", args("n-1", "b"), Map.of());
      assertThat(tools.started.poll(300, TimeUnit.MILLISECONDS)).isNull();

      releaseA.countDown();
      assertThat(done(first).isSuccess()).isTrue();
      assertThat(tools.started.poll(10, TimeUnit.SECONDS)).isEqualTo("b");
      releaseB.countDown();
      assertThat(done(second).isSuccess()).isTrue();
      assertThat(tools.ran).containsExactly("a", "b");
    }
  }
}
