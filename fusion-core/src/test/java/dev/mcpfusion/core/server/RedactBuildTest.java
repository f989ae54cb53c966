package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.Redaction;
import org.junit.jupiter.api.Test;

/** A server-wide redaction path that is malformed or ends on a number fails {@code build()}. */
class RedactBuildTest {
  @Test
  void aMalformedServerWidePathIsReportedOnce() {
    assertThatThrownBy(() -> Servers.billing(Exposition.FLAT).redact(Redaction.paths("lines[0].x")).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("FusionServer cannot start:\n[fusion/RedactPath] FusionServer.Builder.redact(...):"
            + " the redaction path \"lines[0].x\" is not valid: 'lines[0]' is not a field name. Write"
            + " an exact path (\"a.b\"), a list element path (\"items[*].cardNumber\") or an any-depth"
            + " path (\"*.email\").");
  }

  @Test
  void aServerWidePathEndingOnANumberNamesEveryViewItReaches() {
    assertThatThrownBy(() -> Servers.billing(Exposition.FLAT).redact(Redaction.paths("*.totalCents")).build())
        .hasMessageContaining("[fusion/RedactPath] @Redact path \"*.totalCents\" of InvoiceView ends on"
            + " 'totalCents' (type \"integer\"); only text can be masked without breaking the output"
            + " schema. Point it at a String field (or a list of strings), or expose the value as a"
            + " String in the view.");
  }

  @Test
  void aServerWidePathNoViewHasIsFine() {
    Servers.billing(Exposition.FLAT).redact(Redaction.paths("*.email")).build();
  }
}
