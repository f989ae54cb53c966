package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.trace.SpanStatus;
import dev.mcpfusion.samples.billing.fixtures.AsyncTools;
import dev.mcpfusion.samples.billing.fixtures.RecordingTracer;
import dev.mcpfusion.samples.billing.fixtures.AsyncTools.Note;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.PendingCall;
import dev.mcpfusion.testing.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Handlers that return a {@code CompletionStage}: the value is presented exactly as a blocking
 * return of it; a failure is answered as a thrown exception; the deadline, the client's
 * cancellation and the concurrency gate apply as to a blocking handler; and no thread waits for a
 * pending stage. In both protocol eras.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncHandlersTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static ToolResult done(PendingCall call) {
    return call.await(WAIT).orElseThrow(() -> new AssertionError("no reply"));
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aStagesValueIsPresentedAsABlockingReturnWouldBe(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      PendingCall call = tester.callAsync("later_read", Map.of("id", "n-1"), Map.of());
      tools.future("n-1").complete(new Note("n-1", "text of n-1", "s3cr3t-n-1"));
      ToolResult async = done(call);
      ToolResult blocking = tester.call("later", "read_now", Map.of("id", "n-1"));
      ToolResult completed = tester.call("later", "done", Map.of("id", "n-1"));

      assertThat(async.isSuccess()).isTrue();
      assertThat(async.content()).isEqualTo(blocking.content()).isEqualTo(completed.content());
      assertThat(async.structuredContent()).isEqualTo(blocking.structuredContent())
          .containsEntry("id", "n-1");
      assertThat(async.raw()).doesNotContain("s3cr3t");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void noThreadWaitsForAPendingStage(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      java.util.Set<Thread> before = callThreads();
      List<PendingCall> calls = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        calls.add(tester.callAsync("later_read", Map.of("id", "t-" + i), Map.of()));
      }
      for (int i = 0; i < 20; i++) {
        tools.future("t-" + i);
      }
      // Each call was dispatched on a thread of its own: those threads end although every stage
      // is still pending, so nothing waits on them.
      long end = System.nanoTime() + WAIT.toNanos();
      while (!before.containsAll(callThreads()) && System.nanoTime() < end) {
        Thread.sleep(5);
      }
      assertThat(callThreads()).isSubsetOf(before);
      assertThat(tools.futures.values()).noneMatch(CompletableFuture::isDone);

      for (int i = 0; i < 20; i++) {
        tools.futures.get("t-" + i).complete(new Note("t-" + i, "late", "x"));
      }
      for (PendingCall call : calls) {
        assertThat(done(call).isSuccess()).isTrue();
      }
    }
  }

  /** The tester's call threads alive now: each dispatches one call and ends when dispatch returns. */
  private static java.util.Set<Thread> callThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("fusion-tester-call-") && t.isAlive())
        .collect(java.util.stream.Collectors.toSet());
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aFailedStageIsAnsweredAsAThrownExceptionWouldBe(String era) {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      ToolResult fusion = tester.call("later", "fail", Map.of("kind", "fusion"));
      assertThat(fusion.errorCode()).isEqualTo("NOT_FOUND");
      assertThat(fusion.errorText()).contains("No note \"n-9\".");

      ToolResult unexpected = tester.call("later", "fail", Map.of("kind", "other"));
      assertThat(unexpected.errorText()).matches("<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n"
          + "<message>\\[later/fail\\] The tool failed unexpectedly \\(incident [0-9a-f]{12}\\)\\.</message>\n"
          + "<recovery>Do not retry with the same arguments; tell the user the tool failed\\.</recovery>\n"
          + "</tool_error>");
      assertThat(unexpected.raw()).doesNotContain("hunter2", "IllegalStateException");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void theCallsSpanEndsWhenItsStageCompletesAndTellsItsOutcome(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    RecordingTracer tracer = new RecordingTracer();
    try (FusionTester tester = FusionTester.of(FusionServer.builder("later", "1").register(tools)
        .tracer(tracer)).protocolVersion(era)) {
      PendingCall call = tester.callAsync("later_read", Map.of("id", "x-1"), Map.of());
      tools.future("x-1");
      RecordingTracer.Span span = tracer.calls().get(0);
      assertThat(span.name).isEqualTo("tools/call later_read");
      assertThat(span.ended).isFalse();

      tools.future("x-1").complete(new Note("x-1", "traced", "x"));
      assertThat(done(call).isSuccess()).isTrue();
      long end = System.nanoTime() + WAIT.toNanos();
      while (!span.ended && System.nanoTime() < end) {
        Thread.sleep(2);
      }
      assertThat(span.ended).isTrue();
      assertThat(span.status).isEqualTo(SpanStatus.OK);

      tester.call("later", "fail", Map.of("kind", "other"));
      RecordingTracer.Span failed = tracer.calls().get(1);
      assertThat(failed.attributes.get("error.type")).isEqualTo("INTERNAL_ERROR");
      assertThat(failed.exceptions).containsExactly(IllegalStateException.class.getName());
      assertThat(tracer.dump()).doesNotContain("hunter2");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aStageWithNoValueIsAnsweredAsAVoidHandler(String era) {
    try (FusionTester tester = FusionTester.of(new AsyncTools()).protocolVersion(era)) {
      assertThat(tester.call("later", "touch", Map.of("id", "n-1")).isSuccess()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void aStageNotDoneByTheDeadlineIsTimeoutAndIsCancelled(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      ToolResult r = tester.call("later", "slow", Map.of("id", "s-1"));

      assertThat(r.errorText()).isEqualTo("""
          <tool_error code="TIMEOUT" severity="error">
          <message>[later/slow] The call did not finish within 150 ms and was stopped.</message>
          <recovery>Call the tool again with a narrower request. If the call changes data, check whether the change happened before repeating it.</recovery>
          </tool_error>""");
      assertThat(tools.future("s-1").isCancelled()).isTrue();
      // Completing it late changes nothing on the wire.
      tools.future("s-1").complete(new Note("s-1", "LATE-RESULT", "x"));
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("LATE-RESULT"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void cancellingTheCallCancelsItsStageAndSendsNothing(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      PendingCall call = tester.callAsync("later_read", Map.of("id", "c-1"), Map.of());
      CompletableFuture<Note> stage = tools.future("c-1");
      call.cancel();
      long end = System.nanoTime() + WAIT.toNanos();
      while (!stage.isCancelled() && System.nanoTime() < end) {
        Thread.sleep(2);
      }
      assertThat(stage.isCancelled()).isTrue();
      assertThat(call.await(Duration.ofMillis(300))).isEmpty();
      assertThat(tester.rawMessages()).noneMatch(m -> m.contains("\"id\":" + call.id() + ","));
      // The session goes on, and the id is free again.
      PendingCall next = tester.callAsync("later_read", Map.of("id", "c-2"), Map.of());
      tools.future("c-2").complete(new Note("c-2", "fine", "x"));
      assertThat(done(next).isSuccess()).isTrue();
    }
  }

  @org.junit.jupiter.api.Test
  void aCallerThatAnswersOnItsOwnThreadWaitsForTheStageUnderTheDeadline() throws Exception {
    AsyncTools tools = new AsyncTools();
    FusionServer server = FusionServer.builder("later", "1").register(tools).build();
    CompletableFuture<dev.mcpfusion.wire.Reply> inMemory = CompletableFuture.supplyAsync(
        () -> server.edge().call("later_read", Map.of("id", "m-1"), null));
    tools.future("m-1");
    Thread.sleep(50);
    assertThat(inMemory).isNotDone();
    tools.future("m-1").complete(new Note("m-1", "in memory", "s3cr3t"));
    dev.mcpfusion.wire.Reply reply = inMemory.get(10, TimeUnit.SECONDS);
    assertThat(reply.isError()).isFalse();
    assertThat(String.join("\n", reply.blocks())).contains("in memory").doesNotContain("s3cr3t");

    dev.mcpfusion.wire.Reply late = server.edge().call("later_slow", Map.of("id", "m-2"), null);
    assertThat(late.isError()).isTrue();
    assertThat(String.join("\n", late.blocks())).contains("code=\"TIMEOUT\"");
    assertThat(tools.future("m-2").isCancelled()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {FusionTester.DEFAULT_VERSION, FusionTester.MODERN})
  void theGateCountsAnAsyncCallUntilItsStageCompletes(String era) throws Exception {
    AsyncTools tools = new AsyncTools();
    try (FusionTester tester = FusionTester.of(tools).protocolVersion(era)) {
      PendingCall first = tester.callAsync("later_gated", Map.of("id", "g-1"), Map.of());
      tools.future("g-1");

      ToolResult busy = tester.call("later", "gated", Map.of("id", "g-2"));
      assertThat(busy.errorCode()).isEqualTo("SERVER_BUSY");
      assertThat(busy.errorText()).contains("[later/gated] The server is busy: its limit of 1 running"
          + " and 0 waiting calls is reached.");
      assertThat(tools.futures).doesNotContainKey("g-2");

      tools.future("g-1").complete(new Note("g-1", "done", "x"));
      assertThat(done(first).isSuccess()).isTrue();
      PendingCall third = tester.callAsync("later_gated", Map.of("id", "g-3"), Map.of());
      tools.future("g-3").complete(new Note("g-3", "done", "x"));
      assertThat(done(third).isSuccess()).isTrue();
    }
  }
}
