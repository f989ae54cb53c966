package dev.mcpfusion.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** What a reply repeats of a sent text: whole when short, cut on a character with its length when not. */
class EchoTest {
  @Test
  void aShortTextIsRepeatedWhole() {
    String longestWhole = "n".repeat(Echo.MAX_CHARS);
    assertThat(Echo.quoted("billing_get_invoice")).isEqualTo("\"billing_get_invoice\"");
    assertThat(Echo.quoted(longestWhole)).isEqualTo("\"" + longestWhole + "\"");
    assertThat(Echo.cut(longestWhole)).isEqualTo(longestWhole);
    assertThat(Echo.isLong(longestWhole)).isFalse();
  }

  @Test
  void aLongTextIsCutAndItsLengthSaid() {
    String sent = "abc".repeat(40);
    String head = sent.substring(0, Echo.MAX_CHARS);
    assertThat(Echo.quoted(sent)).isEqualTo("\"" + head + "\u2026\" (120 characters)");
    assertThat(Echo.cut(sent)).isEqualTo(head + "\u2026");
    assertThat(Echo.isLong(sent)).isTrue();
  }

  @Test
  void charactersAreCodePointsAndNeverSplit() {
    // 100 emoji are 200 UTF-16 units: still whole; 101 are cut after the 100th, never inside one.
    String hundred = "\uD83D\uDE00".repeat(Echo.MAX_CHARS);
    assertThat(Echo.quoted(hundred)).isEqualTo("\"" + hundred + "\"");
    String more = hundred + "\uD83D\uDE00";
    assertThat(Echo.cut(more)).isEqualTo(hundred + "\u2026");
    assertThat(Echo.quoted(more)).endsWith("\u2026\" (101 characters)");
    assertThat(Echo.length(more)).isEqualTo(101);
  }

  @Test
  void anIdIsQuotedWhenAStringAndWrittenWhenANumber() {
    assertThat(Echo.id("req-7")).isEqualTo("\"req-7\"");
    assertThat(Echo.id(7)).isEqualTo("7");
    BigInteger huge = BigInteger.TEN.pow(150);
    assertThat(Echo.id(huge)).isEqualTo("1" + "0".repeat(Echo.MAX_CHARS - 1) + "\u2026 (151 digits)");
  }
}
