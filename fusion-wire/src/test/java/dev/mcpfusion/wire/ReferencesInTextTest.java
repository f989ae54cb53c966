package dev.mcpfusion.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Logical references inside a text (a recovery line) are written as the agent calls them — only
 * those that name a real action; nothing else in the text changes.
 */
class ReferencesInTextTest {
  private static final Set<String> REAL = Set.of("billing.list_invoices", "billing.get_invoice");
  private static final References FLAT = ref -> REAL.contains(ref) ? ref.replace('.', '_') : ref;
  private static final References GROUPED = ref -> REAL.contains(ref)
      ? ref.substring(0, ref.indexOf('.')) + " (action: " + ref.substring(ref.indexOf('.') + 1) + ")"
      : ref;

  @Test
  void aRealReferenceIsRenderedPerExposition() {
    String text = "Call billing.list_invoices first to find valid IDs.";
    assertThat(FLAT.renderIn(text)).isEqualTo("Call billing_list_invoices first to find valid IDs.");
    assertThat(GROUPED.renderIn(text))
        .isEqualTo("Call billing (action: list_invoices) first to find valid IDs.");
  }

  @Test
  void everyRealReferenceIsRenderedWherePunctuationSurroundsIt() {
    assertThat(FLAT.renderIn("Call billing.list_invoices, then billing.get_invoice."))
        .isEqualTo("Call billing_list_invoices, then billing_get_invoice.");
    assertThat(FLAT.renderIn("(billing.list_invoices) `billing.get_invoice`: 'billing.list_invoices'"))
        .isEqualTo("(billing_list_invoices) `billing_get_invoice`: 'billing_list_invoices'");
    assertThat(FLAT.renderIn("billing.get_invoice")).isEqualTo("billing_get_invoice");
  }

  @Test
  void nothingButARealReferenceChanges() {
    String text = "See docs.example.com, billing.list_invoices_all, xbilling.list_invoices,"
        + " billing.list_invoices2, billing.list_invoices.csv, mail@billing.get_invoice,"
        + " Billing.list_invoices, billing.*, v1.2 and billing://invoices/INV-1.";
    assertThat(FLAT.renderIn(text)).isEqualTo(text);
    assertThat(GROUPED.renderIn(text)).isEqualTo(text);
  }

  @Test
  void noTextIsNoText() {
    assertThat(FLAT.renderIn(null)).isNull();
    assertThat(FLAT.renderIn("")).isEmpty();
    assertThat(References.asWritten().renderIn("Call billing.list_invoices first."))
        .isEqualTo("Call billing.list_invoices first.");
  }
}
