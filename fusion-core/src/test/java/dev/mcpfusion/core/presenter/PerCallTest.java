package dev.mcpfusion.core.presenter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The wire form of a page cursor: what round-trips and what is rejected. */
class PerCallTest {

  @Test
  void aCursorRoundTripsWhateverTheHandlerPutInIt() {
    for (String handler : List.of("INV-0950", "a:b:c", "ünï-cødé ✓", "", "+-")) {
      for (int skip : List.of(0, 7, 49)) {
        String wire = PerCall.encode(handler, skip);
        assertThat(wire).startsWith("p1.").doesNotContain("=").doesNotContain("/").doesNotContain("+");
        assertThat(PerCall.decode(wire)).containsExactly(String.valueOf(skip), handler);
      }
    }
    assertThat(PerCall.decode(PerCall.encode(null, 12))).containsExactly("12", null);
  }

  @Test
  void aCursorThatIsNotOursIsRejected() {
    String real = PerCall.encode("INV-0950", 0);
    for (String bad : List.of("", "page-2", "p1.", "p1..", "INV-0950", real + "x",
        real.replace("p1.", "p2."), "p1.!!!!." + real.substring(real.lastIndexOf('.') + 1),
        "x".repeat(5000))) {
      assertThat(PerCall.decode(bad)).as(bad).isNull();
    }
    // one flipped character of the payload fails the checksum
    int at = 4;
    char c = real.charAt(at);
    String flipped = real.substring(0, at) + (c == 'A' ? 'B' : 'A') + real.substring(at + 1);
    assertThat(PerCall.decode(flipped)).isNull();
  }
}
