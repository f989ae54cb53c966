package dev.mcpfusion.core.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prompts and resources in the lockfile: recorded, read back, and every drift rule classified. */
class FeatureDriftTest {
  private static final LockProfile PROFILE = new LockProfile(Exposition.FLAT, "_", List.of());

  private static PromptContract prompt(Map<String, Boolean> arguments, String description) {
    Map<String, String> descriptions = new LinkedHashMap<>();
    arguments.keySet().forEach(k -> descriptions.put(k, "the " + k));
    return new PromptContract("overdue", "billing", "", description, arguments, descriptions, null);
  }

  private static ResourceContract resource(String router, String mimeType, boolean binary,
      String description) {
    return new ResourceContract("billing://invoices/{id}", router, "invoice", "", description,
        mimeType, binary, null);
  }

  private static Contract contract(PromptContract p, ResourceContract r) {
    return new Contract(PROFILE, Map.of(), p == null ? Map.of() : Map.of(p.name(), p),
        r == null ? Map.of() : Map.of(r.uri(), r));
  }

  private static String report(Contract before, Contract after) {
    return Drift.between(before, after).report();
  }

  private static final PromptContract PROMPT = prompt(Map.of("audience", true), "Summarise");
  private static final ResourceContract RESOURCE = resource("billing", "application/json", false,
      "One invoice");

  @Test
  void promptsAndResourcesRoundTripAndAToolOnlyLockfileHasNeitherKey() {
    Contract c = contract(PROMPT, RESOURCE);
    String text = Lockfile.write(c);
    assertThat(text).contains("\"prompts\": {", "\"resources\": {", "\"billing://invoices/{id}\"");
    assertThat(Lockfile.read(text)).isEqualTo(c);
    assertThat(Drift.check(text, c).isEmpty()).isTrue();
    String toolsOnly = Lockfile.write(new Contract(PROFILE, Map.of()));
    assertThat(toolsOnly).doesNotContain("prompts").doesNotContain("resources");
  }

  @Test
  void aHandEditedPromptFailsItsDigest() {
    String text = Lockfile.write(contract(PROMPT, null)).replace("\"Summarise\"", "\"Summarize\"");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lockfile.read(text))
        .hasMessageContaining("the digest of prompt \"overdue\" does not match its content");
  }

  @Test
  void promptDriftIsClassified() {
    Contract before = contract(PROMPT, null);
    assertThat(report(before, contract(null, null))).isEqualTo("BREAKING prompt overdue: prompt removed");
    assertThat(report(contract(null, null), before)).isEqualTo("SAFE prompt overdue: prompt added");
    assertThat(report(before, contract(prompt(Map.of("audience", true, "tone", true), "Summarise"), null)))
        .isEqualTo("BREAKING prompt overdue: required argument added: tone");
    assertThat(report(before, contract(prompt(Map.of("audience", true, "tone", false), "Summarise"), null)))
        .isEqualTo("SAFE prompt overdue: optional argument added: tone");
    assertThat(report(before, contract(prompt(Map.of("audience", false), "Summarise"), null)))
        .isEqualTo("SAFE prompt overdue: required argument removed: audience (now optional)");
    assertThat(report(contract(prompt(Map.of("audience", false), "Summarise"), null), before))
        .isEqualTo("BREAKING prompt overdue: required argument added: audience (was optional)");
    assertThat(report(before, contract(prompt(Map.of(), "Summarise"), null)))
        .isEqualTo("SAFE prompt overdue: required argument removed: audience");
    assertThat(report(before, contract(prompt(Map.of("audience", true), "Sum up"), null)))
        .isEqualTo("COSMETIC prompt overdue: description changed: \"Summarise\" \u2192 \"Sum up\"");
  }

  @Test
  void resourceDriftIsClassified() {
    Contract before = contract(null, RESOURCE);
    assertThat(report(before, contract(null, null)))
        .isEqualTo("BREAKING resource billing://invoices/{id}: resource removed");
    assertThat(report(contract(null, null), before))
        .isEqualTo("SAFE resource billing://invoices/{id}: resource added");
    assertThat(report(before, contract(null, resource("billing", "text/plain", false, "One invoice"))))
        .isEqualTo("BREAKING resource billing://invoices/{id}: mimeType changed:"
            + " \"application/json\" \u2192 \"text/plain\"");
    assertThat(report(before, contract(null, resource("billing", "application/json", true, "One invoice"))))
        .isEqualTo("BREAKING resource billing://invoices/{id}: content kind changed: text \u2192 binary");
    assertThat(report(before, contract(null, resource("ledger", "application/json", false, "One invoice"))))
        .isEqualTo("RISKY resource billing://invoices/{id}: router changed (other mutations notify its"
            + " subscribers): \"billing\" \u2192 \"ledger\"");
    assertThat(report(before, contract(null, resource("billing", "application/json", false, "An invoice"))))
        .isEqualTo("COSMETIC resource billing://invoices/{id}: description changed: \"One invoice\""
            + " \u2192 \"An invoice\"");
  }
}
