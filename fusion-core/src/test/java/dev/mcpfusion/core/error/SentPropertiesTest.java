package dev.mcpfusion.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.spi.Problem;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class SentPropertiesTest {
  @Property(tries = 500)
  void sentStringsAreQuotedAndNeverLongerThan47CharactersPlusEllipsis(@ForAll String s) {
    String sent = ErrorReplies.sent(s);
    assertThat(sent).startsWith("'").endsWith("'");
    String inner = sent.substring(1, sent.length() - 1);
    int codePoints = s.codePointCount(0, s.length());
    if (codePoints <= 47) {
      assertThat(inner).isEqualTo(s);
    } else {
      assertThat(inner).endsWith("…");
      String kept = inner.substring(0, inner.length() - 1);
      assertThat(kept.codePointCount(0, kept.length())).isEqualTo(47);
      assertThat(s).startsWith(kept);
    }
  }

  @Property(tries = 300)
  void everyLineEndsWithWhatWasSentAndTheHint(@ForAll String message, @ForAll long value) {
    String line = ErrorReplies.line(new Problem("p", message, value, "Use a small number."));
    assertThat(line).endsWith("You sent: " + value + ". Use a small number.");
    assertThat(line).startsWith(message);
  }
}
