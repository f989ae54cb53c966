package dev.mcpfusion.lock;

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

  private static final IconContract LIGHT =
      new IconContract("https://billing.example/i-48.png", "image/png", List.of("48x48"), "light");
  private static final IconContract ANY = new IconContract("data:image/svg+xml;base64,PHN2Zy8+", "",
      List.of(), "");

  private static PromptContract iconPrompt(List<IconContract> icons) {
    return new PromptContract("overdue", "billing", "", "Summarise", Map.of("audience", true),
        Map.of("audience", "the audience"), null, Map.of(), Map.of(), icons);
  }

  private static ResourceContract iconResource(List<IconContract> icons) {
    return new ResourceContract("billing://invoices/{id}", "billing", "invoice", "", "One invoice",
        "application/json", false, null, Map.of(), Map.of(), icons);
  }

  @Test
  void iconsRoundTripInOrderAndAMemberWithoutIconsWritesNoIconsKeyAndKeepsItsDigest() {
    Contract withIcons = contract(iconPrompt(List.of(LIGHT, ANY)), iconResource(List.of(ANY)));
    String text = Lockfile.write(withIcons);
    assertThat(text).contains("\"icons\": [", "\"theme\": \"light\"", "\"sizes\": [");
    assertThat(Lockfile.read(text)).isEqualTo(withIcons);
    assertThat(Drift.check(text, withIcons).isEmpty()).isTrue();
    assertThat(Lockfile.write(contract(PROMPT, RESOURCE))).doesNotContain("icons");
    assertThat(iconResource(List.of()).digest()).isEqualTo(RESOURCE.digest());
    assertThat(iconPrompt(List.of()).digest())
        .isEqualTo(new PromptContract("overdue", "billing", "", "Summarise", Map.of("audience", true),
            Map.of("audience", "the audience"), null).digest());
  }

  @Test
  void anIconChangeIsCosmetic() {
    Contract before = contract(iconPrompt(List.of(LIGHT)), iconResource(List.of()));
    assertThat(report(before, contract(iconPrompt(List.of(ANY, LIGHT)), iconResource(List.of()))))
        .isEqualTo("COSMETIC prompt overdue: icons changed: \"https://billing.example/i-48.png\""
            + " \u2192 \"data:image/svg+xml;base64,PHN2Zy8+\", \"https://billing.example/i-48.png\"");
    assertThat(report(before, contract(iconPrompt(List.of(LIGHT)), iconResource(List.of(LIGHT)))))
        .isEqualTo("COSMETIC resource billing://invoices/{id}: icons changed: none \u2192"
            + " \"https://billing.example/i-48.png\"");
    IconContract dark = new IconContract(LIGHT.src(), LIGHT.mimeType(), LIGHT.sizes(), "dark");
    assertThat(report(before, contract(iconPrompt(List.of(dark)), iconResource(List.of()))))
        .startsWith("COSMETIC prompt overdue: icons changed");
    assertThat(Drift.between(before, contract(iconPrompt(List.of()), iconResource(List.of(ANY))))
        .changes()).extracting(Change::severity).containsOnly(Severity.COSMETIC);
  }

  private static PromptContract limitedPrompt(Map<String, Long> limits,
      Map<String, Map<String, Long>> completionLimits) {
    return new PromptContract("overdue", "billing", "", "Summarise", Map.of("audience", true),
        Map.of("audience", "the audience"), null, limits, completionLimits);
  }

  private static ResourceContract limitedResource(Map<String, Long> limits) {
    return new ResourceContract("billing://invoices/{id}", "billing", "invoice", "", "One invoice",
        "application/json", false, null, limits, Map.of());
  }

  @Test
  void featureLimitsRoundTripAndAFeatureWithoutLimitsWritesNoLimitsKey() {
    Contract limited = contract(limitedPrompt(Map.of("timeoutMs", 100L, "maxEgressBytes", 4096L),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxConcurrent", 2L,
        "queue", 0L)));
    String text = Lockfile.write(limited);
    assertThat(text).contains("\"limits\": {", "\"completionLimits\": {", "\"timeoutMs\": 100");
    assertThat(Lockfile.read(text)).isEqualTo(limited);
    assertThat(Drift.check(text, limited).isEmpty()).isTrue();
    // Without limits the entry, and so its digest, reads as before limits were recorded.
    assertThat(Lockfile.write(contract(PROMPT, RESOURCE))).doesNotContain("limits");
    assertThat(limitedPrompt(Map.of(), Map.of())).isEqualTo(PROMPT);
  }

  @Test
  void featureLimitDriftIsClassifiedAsAToolsLimitDrift() {
    Contract before = contract(limitedPrompt(Map.of("timeoutMs", 100L),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxEgressBytes", 4096L)));
    assertThat(report(before, contract(limitedPrompt(Map.of("timeoutMs", 200L),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxEgressBytes", 4096L)))))
        .isEqualTo("RISKY prompt overdue: limit loosened: timeoutMs: 100 \u2192 200");
    assertThat(report(before, contract(limitedPrompt(Map.of("timeoutMs", 20L),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxEgressBytes", 4096L)))))
        .isEqualTo("SAFE prompt overdue: limit tightened: timeoutMs: 100 \u2192 20");
    assertThat(report(before, contract(limitedPrompt(Map.of(),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxEgressBytes", 4096L)))))
        .isEqualTo("RISKY prompt overdue: limit removed: timeoutMs: 100 \u2192 none");
    assertThat(report(before, contract(limitedPrompt(Map.of("timeoutMs", 100L, "maxConcurrent", 4L),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxEgressBytes", 4096L)))))
        .isEqualTo("SAFE prompt overdue: limit added: maxConcurrent: none \u2192 4");
    assertThat(report(before, contract(limitedPrompt(Map.of("timeoutMs", 100L), Map.of()),
        limitedResource(Map.of("maxEgressBytes", 4096L)))))
        .isEqualTo("RISKY prompt overdue (completion of audience): limit removed: timeoutMs: 50"
            + " \u2192 none");
    assertThat(report(before, contract(limitedPrompt(Map.of("timeoutMs", 100L),
        Map.of("audience", Map.of("timeoutMs", 50L))), limitedResource(Map.of("maxEgressBytes", 8192L)))))
        .isEqualTo("RISKY resource billing://invoices/{id}: limit loosened: maxEgressBytes: 4096"
            + " \u2192 8192");
  }

  /** A class whose prompt, resource and completion carry @Limits, on top of the class's. */
  @dev.mcpfusion.annotation.Limits(timeoutMs = 5_000)
  static final class Limited {
    @dev.mcpfusion.annotation.Prompt(description = "Summarise")
    @dev.mcpfusion.annotation.Limits(timeoutMs = 100)
    public String overdue(String audience) {
      return audience;
    }

    @dev.mcpfusion.annotation.Resource(uri = "billing://invoices/{id}", description = "One invoice")
    @dev.mcpfusion.annotation.Limits(maxEgressBytes = 4096)
    public String invoice(String id) {
      return id;
    }

    @dev.mcpfusion.annotation.Complete(prompt = "overdue", argument = "audience")
    @dev.mcpfusion.annotation.Limits(maxConcurrent = 2)
    public List<String> audiences(String prefix) {
      return List.of();
    }
  }

  @Test
  void theContractRecordsTheLimitsTheServerResolves() {
    dev.mcpfusion.core.spi.FeaturesDescriptor features = new dev.mcpfusion.core.spi.FeaturesDescriptor(
        "billing", Limited.class,
        List.of(dev.mcpfusion.core.spi.PromptDescriptor.builder("overdue").method("overdue")
            .description("Summarise").arguments(dev.mcpfusion.core.spi.PromptArgument.required(
                "audience", "")).build()),
        List.of(dev.mcpfusion.core.spi.ResourceDescriptor.builder("billing://invoices/{id}", "invoice")
            .method("invoice").description("One invoice").mimeType("text/plain").variables("id")
            .build()),
        List.of(dev.mcpfusion.core.spi.CompletionDescriptor.forPrompt("overdue", "audience",
            "audiences")),
        List.of());
    LockProfile profile = PROFILE.withLimits(dev.mcpfusion.core.CallLimits.none().maxEgressBytes(65_536));
    Contract c = Contract.of(List.of(), List.of(features), profile);

    assertThat(c.prompts().get("overdue").limits())
        .containsExactlyInAnyOrderEntriesOf(Map.of("timeoutMs", 100L, "maxEgressBytes", 65_536L));
    assertThat(c.prompts().get("overdue").completionLimits()).containsExactlyInAnyOrderEntriesOf(
        Map.of("audience", Map.of("maxConcurrent", 2L, "queue", 0L, "timeoutMs", 5_000L,
            "maxEgressBytes", 65_536L)));
    assertThat(c.resources().get("billing://invoices/{id}").limits())
        .containsExactlyInAnyOrderEntriesOf(Map.of("timeoutMs", 5_000L, "maxEgressBytes", 4096L));
  }
}
