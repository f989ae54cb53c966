package dev.mcpfusion.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.spi.FeaturesDescriptor;
import dev.mcpfusion.core.spi.PromptDescriptor;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code @Scopes} on prompts and resources in the lockfile: recorded like an action's, and drift-classified like one. */
class FeatureScopesLockTest {
  private static final LockProfile PROFILE = new LockProfile(Exposition.FLAT, "_", List.of());

  private static PromptContract prompt(String... scopes) {
    return new PromptContract("overdue", "billing", "", "Summarise", Map.of("audience", true),
        Map.of("audience", "the audience"), null, Map.of(), Map.of(), List.of(), List.of(scopes));
  }

  private static ResourceContract resource(String... scopes) {
    return new ResourceContract("billing://invoices/{id}", "billing", "invoice", "", "One invoice",
        "application/json", false, null, Map.of(), Map.of(), List.of(), List.of(scopes));
  }

  private static Contract contract(PromptContract p, ResourceContract r) {
    return new Contract(PROFILE, Map.of(), Map.of(p.name(), p), Map.of(r.uri(), r));
  }

  @Test
  void scopesRoundTripSortedAndAMemberWithoutScopesWritesNoKeyAndKeepsItsDigest() {
    Contract scoped = contract(prompt("invoices:write", "invoices:read"), resource("invoices:read"));
    assertThat(scoped.prompts().get("overdue").scopes()).containsExactly("invoices:read", "invoices:write");
    String text = Lockfile.write(scoped);
    assertThat(text).contains("\"scopes\": [");
    assertThat(Lockfile.read(text)).isEqualTo(scoped);
    assertThat(Drift.check(text, scoped).isEmpty()).isTrue();

    assertThat(Lockfile.write(contract(prompt(), resource()))).doesNotContain("\"scopes\"");
    assertThat(prompt().digest()).isEqualTo(new PromptContract("overdue", "billing", "", "Summarise",
        Map.of("audience", true), Map.of("audience", "the audience"), null).digest());
    assertThat(resource().digest()).isEqualTo(new ResourceContract("billing://invoices/{id}", "billing",
        "invoice", "", "One invoice", "application/json", false, null).digest());
    assertThat(prompt("invoices:read").digest()).isNotEqualTo(prompt().digest());
  }

  @Test
  void aScopeAddedToAPromptOrResourceIsBreakingAndOneRemovedIsRisky() {
    Contract open = contract(prompt(), resource());
    Contract scoped = contract(prompt("invoices:write"), resource("invoices:read"));
    assertThat(Drift.between(open, scoped).report()).isEqualTo(String.join("\n",
        "BREAKING prompt overdue: scope required: (none) \u2192 \"invoices:write\"",
        "BREAKING resource billing://invoices/{id}: scope required: (none) \u2192 \"invoices:read\""));
    assertThat(Drift.between(scoped, open).report()).isEqualTo(String.join("\n",
        "RISKY prompt overdue: scope no longer required: \"invoices:write\" \u2192 (none)",
        "RISKY resource billing://invoices/{id}: scope no longer required: \"invoices:read\" \u2192 (none)"));
  }

  /** The features' class (limits are read from its methods' annotations: it has none). */
  public static final class Scoped {
    public String overdue() {
      return "";
    }

    public String invoice(String id) {
      return id;
    }
  }

  @Test
  void theContractRecordsTheScopesOfTheDescriptors() {
    FeaturesDescriptor features = new FeaturesDescriptor("billing", Scoped.class,
        List.of(PromptDescriptor.builder("overdue").method("overdue").description("Summarise")
            .scopes("invoices:read", "invoices:write").build()),
        List.of(ResourceDescriptor.builder("billing://invoices/{id}", "invoice").method("invoice")
            .description("One invoice").mimeType("text/plain").variables("id")
            .scopes("invoices:read").build()),
        List.of(), List.of());
    Contract c = Contract.of(List.of(), List.of(features), PROFILE);
    assertThat(c.prompts().get("overdue").scopes()).containsExactly("invoices:read", "invoices:write");
    assertThat(c.resources().get("billing://invoices/{id}").scopes()).containsExactly("invoices:read");
  }
}
