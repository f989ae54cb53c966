package dev.mcpfusion.lock;

import static dev.mcpfusion.lock.LockFixtures.billing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Detector;
import dev.mcpfusion.annotation.Mask;
import dev.mcpfusion.core.Redaction;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lockfile records each action's redaction; loosening it is RISKY, removing it BREAKING. */
class RedactionDriftTest {
  static final Redaction BASE = Redaction.paths("*.email", "items[*].cardNumber")
      .detect(Detector.CARD, Detector.IBAN).pattern("employee id", "EMP-\\d{6}");

  static Contract contract(Redaction redaction) {
    return Contract.of(List.of(billing()), LockProfile.defaults().withRedaction(redaction));
  }

  static String report(Redaction before, Redaction after) {
    return Drift.between(contract(before), contract(after)).report();
  }

  @Test
  void theLockfileRecordsTheRedactionOfEveryActionAndReadsItBack() {
    Contract contract = contract(BASE);
    String text = Lockfile.write(contract);
    String recorded = """
          "redaction": {
            "detect": [
              "CARD",
              "IBAN"
            ],
            "mask": "FULL",
            "paths": [
              "*.email",
              "items[*].cardNumber"
            ],
            "patterns": {
              "employee id": "EMP-\\\\d{6}"
            }
          },
          "required": [""";
    // Once in the profile, and once in each of the three actions.
    assertThat(text.split("\"redaction\": \\{", -1)).hasSize(5);
    assertThat(text).contains(recorded.indent(10));
    assertThat(Drift.check(text, contract).isEmpty()).isTrue();
    assertThat(Lockfile.read(text).profile().redaction()).isEqualTo(BASE);
    // Without redaction nothing is written: lockfiles of connectors that do not redact are unchanged.
    assertThat(Lockfile.write(contract(Redaction.none()))).doesNotContain("redaction");
  }

  @Test
  void removingRedactionIsBreaking() {
    assertThat(report(BASE, Redaction.none())).isEqualTo("""
        BREAKING billing_get_invoice: redaction removed: paths=[*.email, items[*].cardNumber] detect=[CARD, IBAN] patterns=[employee id] mask=FULL \u2192 none
        BREAKING billing_list_invoices: redaction removed: paths=[*.email, items[*].cardNumber] detect=[CARD, IBAN] patterns=[employee id] mask=FULL \u2192 none
        BREAKING billing_void_invoice: redaction removed: paths=[*.email, items[*].cardNumber] detect=[CARD, IBAN] patterns=[employee id] mask=FULL \u2192 none""");
  }

  @Test
  void droppingAPathADetectorOrAPatternIsRisky() {
    Redaction fewer = Redaction.paths("*.email").detect(Detector.CARD);
    assertThat(Drift.between(contract(BASE), contract(fewer)).changes())
        .extracting(Change::severity).containsOnly(Severity.RISKY).hasSize(3);
    assertThat(report(BASE, fewer).lines().findFirst().orElseThrow()).isEqualTo(
        "RISKY billing_get_invoice: redaction loosened: path items[*].cardNumber, detector IBAN,"
            + " pattern employee id: paths=[*.email, items[*].cardNumber] detect=[CARD, IBAN]"
            + " patterns=[employee id] mask=FULL \u2192 paths=[*.email] detect=[CARD] patterns=[] mask=FULL");
  }

  @Test
  void fullToPartialIsRiskyAndTheReverseIsSafe() {
    assertThat(report(BASE, BASE.mask(Mask.PARTIAL)).lines().findFirst().orElseThrow())
        .startsWith("RISKY billing_get_invoice: redaction loosened: mask FULL -> PARTIAL:");
    assertThat(Drift.between(contract(BASE.mask(Mask.PARTIAL)), contract(BASE)).maxSeverity())
        .contains(Severity.SAFE);
  }

  @Test
  void addingOrTighteningRedactionIsSafe() {
    assertThat(Drift.between(contract(Redaction.none()), contract(BASE)).maxSeverity())
        .contains(Severity.SAFE);
    assertThat(report(BASE, BASE.detect(Detector.SSN)).lines().findFirst().orElseThrow())
        .startsWith("SAFE billing_get_invoice: redaction tightened:");
  }

  @Test
  void aChangedPatternCountsAsLoosened() {
    Redaction changed = Redaction.paths("*.email", "items[*].cardNumber")
        .detect(Detector.CARD, Detector.IBAN).pattern("employee id", "EMP-\\d{7}");
    assertThat(report(BASE, changed).lines().findFirst().orElseThrow())
        .startsWith("RISKY billing_get_invoice: redaction loosened: pattern employee id:");
  }
}
