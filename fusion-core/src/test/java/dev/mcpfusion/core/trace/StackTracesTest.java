package dev.mcpfusion.core.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StackTracesTest {
  @Test
  void withoutMessagesNoMessageOfAnyCauseOrSuppressedAppears() {
    IllegalStateException top = new IllegalStateException("top secret",
        new IllegalArgumentException("cause secret"));
    top.addSuppressed(new RuntimeException("suppressed secret"));
    String text = StackTraces.of(top, false);
    assertThat(text).doesNotContain("secret");
    assertThat(text).startsWith("java.lang.IllegalStateException\n");
    assertThat(text).contains("Caused by: java.lang.IllegalArgumentException\n");
    assertThat(text).contains("Suppressed: java.lang.RuntimeException\n");
    assertThat(text).contains("\tat dev.mcpfusion.core.trace.StackTracesTest.");
  }

  @Test
  void withMessagesItReadsLikeTheJdk() {
    IllegalStateException top = new IllegalStateException("top secret",
        new IllegalArgumentException("cause secret"));
    String text = StackTraces.of(top, true);
    assertThat(text).startsWith("java.lang.IllegalStateException: top secret\n");
    assertThat(text).contains("Caused by: java.lang.IllegalArgumentException: cause secret\n");
  }

  @Test
  void circularCausesTerminate() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    assertThat(StackTraces.of(a, false)).contains("[CIRCULAR REFERENCE: java.lang.RuntimeException]");
  }
}
