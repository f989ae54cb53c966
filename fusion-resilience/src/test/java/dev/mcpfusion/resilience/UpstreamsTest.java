package dev.mcpfusion.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A circuit per upstream through its states, and the refusal an agent reads while it is open. */
class UpstreamsTest {
  /** A clock the test moves instead of sleeping. */
  static final class MovableClock extends Clock {
    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /** The upstream: up or down, counting the calls that reach it. */
  static final class Ledger implements LedgerTools.LedgerApi {
    volatile boolean up = true;
    volatile boolean unknownAccounts;
    final AtomicInteger reached = new AtomicInteger();

    @Override
    public String balance(String account) throws IOException {
      reached.incrementAndGet();
      if (!up) {
        throw new IOException("connect to 10.0.0.7:8443 refused");
      }
      if (unknownAccounts) {
        throw FusionError.notFound("Account " + account + " does not exist.");
      }
      return "42.00 EUR";
    }
  }

  private final MovableClock clock = new MovableClock();
  private final Ledger ledger = new Ledger();
  private final Upstreams upstreams = Upstreams.create(UpstreamPolicy.defaults()
      .window(4, 4).failureRatePercent(50).openFor(Duration.ofSeconds(30)).trialCalls(2).clock(clock));
  private final FusionTester tester = FusionTester.of(FusionServer.builder("ledger", "1.0.0")
      .register(new LedgerTools(upstreams, ledger)));

  @AfterEach
  void close() {
    tester.close();
  }

  private ToolResult balance() {
    return tester.call("ledger", "balance", Map.of("account", "A-1"));
  }

  private void failFourCalls() {
    ledger.up = false;
    for (int i = 0; i < 4; i++) {
      ToolResult failed = balance();
      assertThat(failed.errorCode()).isEqualTo(Codes.INTERNAL_ERROR);
      assertThat(failed.errorText()).doesNotContain("10.0.0.7").doesNotContain("IOException");
    }
  }

  @Test
  void closedOpensAfterFailuresThenRefusesWithoutCallingAndSaysWhenToRetry() {
    failFourCalls();
    assertThat(upstreams.upstream("ledger-api").state()).isEqualTo(Upstream.State.OPEN);
    int reached = ledger.reached.get();

    ToolResult refused = balance();
    assertThat(ledger.reached.get()).isEqualTo(reached);
    assertThat(refused.isError()).isTrue();
    assertThat(refused.errorCode()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
    assertThat(refused.retryAfterSeconds()).isEqualTo(30L);
    assertThat(refused.details()).containsEntry("upstream", "ledger-api").containsEntry("circuit", "open");
    assertThat(refused.errorText()).contains("The upstream ledger-api is unavailable: its recent calls "
        + "failed, so calls to it are paused.");
    assertThat(refused.recovery()).isEqualTo("Retry after the time below. Until then do not call actions "
        + "that need ledger-api; if the user needs them now, tell the user ledger-api is unavailable.");
    assertThat(refused.errorText()).doesNotContain("10.0.0.7").doesNotContain("resilience4j");

    clock.advance(Duration.ofSeconds(12));
    assertThat(balance().retryAfterSeconds()).isEqualTo(18L);
  }

  @Test
  void openTurnsHalfOpenAfterTheWaitAndTrialSuccessesCloseIt() {
    failFourCalls();
    clock.advance(Duration.ofSeconds(31));
    ledger.up = true;
    assertThat(balance().dataText()).contains("42.00 EUR");
    assertThat(upstreams.upstream("ledger-api").state()).isEqualTo(Upstream.State.HALF_OPEN);
    assertThat(balance().dataText()).contains("42.00 EUR");
    assertThat(upstreams.upstream("ledger-api").state()).isEqualTo(Upstream.State.CLOSED);
    assertThat(balance().isSuccess()).isTrue();
  }

  @Test
  void aFailedTrialOpensItAgainForAFullWait() {
    failFourCalls();
    clock.advance(Duration.ofSeconds(31));
    assertThat(balance().errorCode()).isEqualTo(Codes.INTERNAL_ERROR);
    assertThat(balance().errorCode()).isEqualTo(Codes.INTERNAL_ERROR);
    assertThat(upstreams.upstream("ledger-api").state()).isEqualTo(Upstream.State.OPEN);
    ToolResult refused = balance();
    assertThat(refused.errorCode()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
    assertThat(refused.retryAfterSeconds()).isEqualTo(30L);
  }

  @Test
  void callsBeyondTheTrialsWhileHalfOpenAreRefusedWithAShortRetry() throws Exception {
    Upstreams one = Upstreams.create(UpstreamPolicy.defaults().window(2, 2).trialCalls(1).clock(clock));
    Upstream upstream = one.upstream("ledger-api");
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> upstream.call(() -> {
        throw new IOException("down");
      })).isInstanceOf(IOException.class).hasMessage("down");
    }
    clock.advance(Duration.ofSeconds(31));
    CountDownLatch inTrial = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> trial = CompletableFuture.supplyAsync(() -> {
      try {
        return upstream.call(() -> {
          inTrial.countDown();
          return release.await(30, TimeUnit.SECONDS) ? "ok" : "not released";
        });
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "interrupted";
      }
    });
    try {
      assertThat(inTrial.await(30, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(() -> upstream.call(() -> "not run"))
          .isInstanceOfSatisfying(FusionError.class, e -> {
            assertThat(e.code()).isEqualTo(Codes.UPSTREAM_UNAVAILABLE);
            assertThat(e.details()).containsEntry("circuit", "half_open");
            assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(1));
            assertThat(e.getMessage()).isEqualTo("The upstream ledger-api is unavailable: a few trial "
                + "calls are checking whether it has recovered.");
          });
    } finally {
      release.countDown();
    }
    assertThat(trial.get(30, TimeUnit.SECONDS)).isEqualTo("ok");
    assertThat(upstream.state()).isEqualTo(Upstream.State.CLOSED);
  }

  @Test
  void aFusionErrorFromTheUpstreamIsItsAnswerNotAFailure() {
    ledger.unknownAccounts = true;
    for (int i = 0; i < 8; i++) {
      assertThat(balance().errorCode()).isEqualTo("NOT_FOUND");
    }
    assertThat(upstreams.upstream("ledger-api").state()).isEqualTo(Upstream.State.CLOSED);
  }

  @Test
  void eachUpstreamHasItsOwnCircuit() {
    failFourCalls();
    assertThat(upstreams.upstream("ledger-api").state()).isEqualTo(Upstream.State.OPEN);
    assertThat(upstreams.upstream("fx-rates").state()).isEqualTo(Upstream.State.CLOSED);
    assertThat(upstreams.upstream("ledger-api")).isSameAs(upstreams.upstream("ledger-api"));
  }

  @Test
  void badPoliciesAndNamesAreRefusedWithTheBound() {
    assertThatThrownBy(() -> UpstreamPolicy.defaults().failureRatePercent(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..100, got 0");
    assertThatThrownBy(() -> UpstreamPolicy.defaults().openFor(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("openFor must be positive");
    assertThatThrownBy(() -> upstreams.upstream(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be blank");
  }

  @Test
  void theReadmesRefusalIsTheOneTheAgentReads() throws Exception {
    failFourCalls();
    String readme = java.nio.file.Files.readString(java.nio.file.Path.of("README.md"));
    String fence = "```\n<tool_error code=\"UPSTREAM_UNAVAILABLE\"";
    int start = readme.indexOf(fence) + 4;
    String shown = readme.substring(start, readme.indexOf("\n```", start));
    assertThat(balance().errorText()).isEqualTo(shown);
  }

  @Test
  void theDefaultsAreTheOnesTheReadmeStates() {
    UpstreamPolicy defaults = UpstreamPolicy.defaults();
    assertThat(defaults.failureRatePercent()).isEqualTo(50);
    assertThat(defaults.windowSize()).isEqualTo(10);
    assertThat(defaults.minimumCalls()).isEqualTo(5);
    assertThat(defaults.openFor()).isEqualTo(Duration.ofSeconds(30));
    assertThat(defaults.trialCalls()).isEqualTo(2);
  }

  @Test
  void resilience4jBringsNoVavr() {
    assertThatThrownBy(() -> Class.forName("io.vavr.control.Try"))
        .isInstanceOf(ClassNotFoundException.class);
  }
}
