package dev.mcpfusion.framework.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code @Scopes} on prompts and resources beyond {@code prompts/get} and {@code resources/read}:
 * completing an argument, subscribing, and what an "unknown" error may name.
 */
class FeatureScopesTest {

  private static FusionTester tester(String era) {
    return FusionTester.of(new LedgerTools.Ledger(), new LedgerTools.Notes()).protocolVersion(era);
  }

  private static void forbidden(McpResponse response, String scope, String text) {
    assertThat(response.isError()).as(response.raw()).isTrue();
    assertThat(response.errorCode()).isEqualTo(-32600);
    assertThat(response.errorMessage()).contains(text).contains("grant the scope " + scope);
    assertThat(response.errorData()).isEqualTo(Map.of("code", "FORBIDDEN", "requiredScopes", List.of(scope)));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> data(McpResponse response) {
    assertThat(response.errorData()).as(response.raw()).isInstanceOf(Map.class);
    return (Map<String, Object>) response.errorData();
  }

  @Test
  void completingAPromptOrTemplateWithoutItsScopeIsForbiddenInBothEras() {
    for (String era : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      try (FusionTester tester = tester(era)) {
        tester.scopes("ledger:read");
        forbidden(tester.complete("draft", "tone", ""), "ledger:write",
            "[ledger] This caller lacks the scope ledger:write, which the prompt \"draft\" requires.");
        forbidden(tester.completeResource("ledger://entries/{id}", "id", ""), "ledger:audit",
            "which the resource template \"ledger://entries/{id}\" requires.");

        tester.scopes("ledger:read", "ledger:write", "ledger:audit");
        McpResponse entry = tester.completeResource("ledger://entries/{id}", "id", "");
        assertThat(entry.isError()).as(era + " " + entry.raw()).isFalse();
        // Past the scope check, the prompt's own answer: it has no argument "tone".
        McpResponse draft = tester.complete("draft", "tone", "");
        assertThat(data(draft)).as(era).containsEntry("code", "UNKNOWN_ARGUMENT");
      }
    }
  }

  @Test
  void subscribingToAResourceWithoutItsScopeIsForbidden() {
    // resources/subscribe is a 2025 session's: the 2026-07-28 protocol has no subscriptions.
    try (FusionTester tester = tester(FusionTester.DEFAULT_VERSION)) {
      tester.scopes("ledger:read");
      forbidden(tester.subscribe("ledger://audit"), "ledger:audit",
          "which the resource \"ledger://audit\" requires.");
      forbidden(tester.subscribe("ledger://entries/7"), "ledger:audit",
          "which the resource \"ledger://entries/7\" requires.");
      assertThat(tester.subscribe("ledger://balance").isError()).isFalse();
      tester.scopes("ledger:read", "ledger:audit");
      McpResponse allowed = tester.subscribe("ledger://audit");
      assertThat(allowed.isError()).as(allowed.raw()).isFalse();
    }
  }

  @Test
  void anUnknownPromptOrResourceErrorNamesOnlyWhatTheCallerMaySeeInBothEras() {
    for (String era : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      try (FusionTester tester = tester(era)) {
        tester.scopes("ledger:read");
        McpResponse prompt = tester.getPrompt("nope", Map.of());
        assertThat(prompt.errorMessage()).as(era).contains("Prompts: summary.")
            .doesNotContain("draft").doesNotContain("notes");
        assertThat(data(prompt)).as(era).containsEntry("available", List.of("summary"));
        assertThat(tester.complete("nope", "x", "").errorMessage()).as(era)
            .contains("Prompts: summary.").doesNotContain("draft");

        McpResponse resource = tester.readResource("ledger://nope");
        assertThat(resource.errorMessage()).as(era).contains("ledger://balance")
            .doesNotContain("ledger://audit").doesNotContain("notes://today")
            .doesNotContain("ledger://entries");
        McpResponse template = tester.completeResource("ledger://nope/{id}", "id", "");
        assertThat(template.errorMessage()).as(era).doesNotContain("ledger://entries");

        // The local caller (no authentication) is shown everything, as its lists are.
        tester.caller(dev.mcpfusion.core.Caller.local());
        assertThat(tester.getPrompt("nope", Map.of()).errorMessage()).as(era)
            .contains("draft").contains("notes");
        assertThat(tester.readResource("ledger://nope").errorMessage()).as(era)
            .contains("ledger://audit").contains("ledger://entries/{id}");
      }
    }
  }
}
