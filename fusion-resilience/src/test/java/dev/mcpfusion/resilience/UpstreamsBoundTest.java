package dev.mcpfusion.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The breakers of names an agent may choose (fusion-outbound keys them by host) stay bounded, and a
 * flood of new names cannot forget a failing upstream's open breaker.
 */
class UpstreamsBoundTest {
  private static final UpstreamPolicy TWO_FAILURES = UpstreamPolicy.defaults().window(2, 2).openFor(Duration.ofMinutes(1));

  private static void fail(Upstream upstream) {
    try {
      upstream.call(() -> {
        throw new IOException("down");
      });
    } catch (IOException expected) {
      // counted by the breaker
    }
  }

  @Test
  void theDefaultRemembersAtMost1024Names() {
    Upstreams upstreams = Upstreams.create();
    for (int i = 0; i < 5_000; i++) {
      upstreams.upstream("host-" + i + ".example.com");
    }
    assertThat(upstreams.size()).isEqualTo(Upstreams.DEFAULT_MAX_UPSTREAMS).isEqualTo(1024);
  }

  @Test
  void theLeastRecentlyUsedClosedBreakerIsForgottenFirst() {
    Upstreams upstreams = Upstreams.create(TWO_FAILURES, 3);
    Upstream a = upstreams.upstream("a");
    upstreams.upstream("b");
    upstreams.upstream("c");
    assertThat(upstreams.upstream("a")).isSameAs(a); // "a" used again: "b" is now the oldest
    upstreams.upstream("d");

    assertThat(upstreams.size()).isEqualTo(3);
    assertThat(upstreams.upstream("a")).isSameAs(a);
  }

  @Test
  void anOpenBreakerOutlivesAFloodOfNewNames() {
    Upstreams upstreams = Upstreams.create(TWO_FAILURES, 3);
    Upstream failing = upstreams.upstream("failing.example.com");
    fail(failing);
    fail(failing);
    assertThat(failing.state()).isEqualTo(Upstream.State.OPEN);

    for (int i = 0; i < 100; i++) {
      upstreams.upstream("flood-" + i + ".example.com");
    }

    assertThat(upstreams.size()).isEqualTo(3);
    assertThat(upstreams.upstream("failing.example.com").state()).isEqualTo(Upstream.State.OPEN);
  }

  @Test
  void aCapBelowOneIsRefused() {
    assertThatThrownBy(() -> Upstreams.create(UpstreamPolicy.defaults(), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxUpstreams");
  }
}
