package dev.mcpfusion.framework.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.Outbound;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@code @Scopes} and the {@link Caller} through the tester: what each caller sees and may call. */
class ScopesTest {

  private static FusionTester tester() {
    return FusionTester.of(new LedgerTools.Me(), new LedgerTools.Ledger());
  }

  private static List<String> names(FusionTester tester) {
    return tester.listTools().stream().map(ToolInfo::name).toList();
  }

  @Test
  void theLocalCallerSeesAndCallsEverything() {
    try (FusionTester tester = tester()) {
      assertThat(names(tester)).containsExactly("me_whoami", "ledger_read", "ledger_post");
      assertThat(tester.call("ledger", "post", Map.of("entry", "rent")).dataText())
          .isEqualTo("posted rent by local");
      assertThat(tester.call("me", "whoami").dataText()).isEqualTo("local");
    }
  }

  @Test
  void toolsListShowsOnlyWhatTheScopesAllow() {
    try (FusionTester tester = tester()) {
      tester.scopes();
      assertThat(names(tester)).containsExactly("me_whoami");
      tester.scopes("ledger:read");
      assertThat(names(tester)).containsExactly("me_whoami", "ledger_read");
      tester.scopes("ledger:write");
      assertThat(names(tester)).containsExactly("me_whoami");
      tester.scopes("ledger:read", "ledger:write");
      assertThat(names(tester)).containsExactly("me_whoami", "ledger_read", "ledger_post");
    }
  }

  @Test
  void theModernEraFiltersToo() {
    try (FusionTester tester = tester().protocolVersion(FusionTester.MODERN)) {
      tester.scopes("ledger:read");
      assertThat(names(tester)).containsExactly("me_whoami", "ledger_read");
    }
  }

  @Test
  void aCallWithoutTheScopeIsForbiddenNamingIt() {
    try (FusionTester tester = tester()) {
      tester.scopes("ledger:read");
      ToolResult result = tester.call("ledger", "post", Map.of("entry", "rent"));
      assertThat(result.isError()).isTrue();
      assertThat(result.errorCode()).isEqualTo("FORBIDDEN");
      assertThat(result.errorText()).contains("[ledger/post] This caller lacks the scope ledger:write");
      assertThat(result.recovery()).contains("grant the scope ledger:write").contains("Do not retry");
      // Refused before decoding: the agent learns nothing about its input either.
      ToolResult invalid = tester.call("ledger", "post", Map.of());
      assertThat(invalid.errorCode()).isEqualTo("FORBIDDEN");
    }
  }

  @Test
  void aGroupedToolIsListedWhenOneActionIsAllowedAndRefusesTheOthers() {
    try (FusionTester tester = FusionTester.of(FusionServer.builder("t", "1")
        .exposition(Exposition.GROUPED).register(new LedgerTools.Ledger()))) {
      tester.scopes("ledger:read");
      assertThat(names(tester)).containsExactly("ledger");
      assertThat(tester.callTool("ledger", Map.of("action", "read")).dataText()).isEqualTo("balance 42");
      assertThat(tester.callTool("ledger", Map.of("action", "post", "entry", "x")).errorCode())
          .isEqualTo("FORBIDDEN");
      tester.scopes("other");
      assertThat(names(tester)).isEmpty();
    }
  }

  @Test
  void theHandlerMiddlewareAndEgressFiltersSeeTheCaller() {
    List<String> seen = new CopyOnWriteArrayList<>();
    try (FusionTester tester = tester()
        .middleware((call, next) -> {
          seen.add("middleware " + call.get(Caller.class).orElseThrow().subject().orElse("?"));
          return next.proceed(call);
        })
        .egressFilter((Outbound out, RequestContext r) -> {
          seen.add("egress " + r.caller().subject().orElse("?"));
          return out;
        })) {
      tester.caller(Caller.of("alice", "cli-1", List.of("ledger:read", "ledger:write"),
          Map.of("email", "a@example.com")));
      assertThat(tester.call("me", "whoami").dataText())
          .isEqualTo("alice [ledger:read, ledger:write] client=cli-1");
      assertThat(tester.call("ledger", "post", Map.of("entry", "rent")).dataText())
          .isEqualTo("posted rent by alice");
      assertThat(seen).contains("middleware alice", "egress alice");
    }
  }

  private static List<String> prompts(FusionTester tester) {
    return tester.listPrompts().stream().map(p -> (String) p.get("name")).toList();
  }

  private static List<String> resources(FusionTester tester) {
    List<String> uris = new java.util.ArrayList<>();
    tester.listResources().forEach(r -> uris.add((String) r.get("uri")));
    tester.listResourceTemplates().forEach(r -> uris.add((String) r.get("uriTemplate")));
    return uris;
  }

  private static FusionTester featureTester(String era) {
    return FusionTester.of(new LedgerTools.Ledger(), new LedgerTools.Notes()).protocolVersion(era);
  }

  @Test
  void promptAndResourceListsShowOnlyWhatTheScopesAllowInBothEras() {
    for (String era : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      try (FusionTester tester = featureTester(era)) {
        assertThat(prompts(tester)).as(era).containsExactlyInAnyOrder("summary", "draft", "notes");
        assertThat(resources(tester)).as(era).containsExactlyInAnyOrder("ledger://balance",
            "ledger://audit", "notes://today", "ledger://entries/{id}");
        tester.scopes();
        assertThat(prompts(tester)).as(era).isEmpty();
        assertThat(resources(tester)).as(era).isEmpty();
        tester.scopes("ledger:read");
        assertThat(prompts(tester)).as(era).containsExactly("summary");
        assertThat(resources(tester)).as(era).containsExactly("ledger://balance");
        tester.scopes("ledger:read", "ledger:write", "ledger:audit", "notes:read");
        assertThat(prompts(tester)).as(era).containsExactlyInAnyOrder("summary", "draft", "notes");
        assertThat(resources(tester)).as(era).containsExactlyInAnyOrder("ledger://balance",
            "ledger://audit", "notes://today", "ledger://entries/{id}");
      }
    }
  }

  @Test
  void aPromptOrResourceWithoutTheScopeIsForbiddenNamingItInBothEras() {
    for (String era : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      try (FusionTester tester = featureTester(era)) {
        tester.scopes("ledger:read");
        assertThat(tester.getPrompt("summary", Map.of()).texts()).as(era)
            .containsExactly("Summarise the ledger.");
        assertThat(tester.readResource("ledger://balance").text()).as(era).isEqualTo("42");
        McpResponseCheck.forbidden(tester.getPrompt("draft", Map.of()), "ledger:write",
            "[ledger] This caller lacks the scope ledger:write, which the prompt \"draft\" requires.");
        McpResponseCheck.forbidden(tester.readResource("ledger://audit"), "ledger:audit",
            "[ledger] This caller lacks the scope ledger:audit, which the resource \"ledger://audit\" requires.");
        McpResponseCheck.forbidden(tester.readResource("ledger://entries/7"), "ledger:audit",
            "which the resource \"ledger://entries/7\" requires.");
        McpResponseCheck.forbidden(tester.getPrompt("notes", Map.of()), "notes:read",
            "This caller lacks the scope notes:read");
        tester.scopes("ledger:read", "ledger:write", "ledger:audit", "notes:read");
        assertThat(tester.getPrompt("draft", Map.of()).texts()).as(era).containsExactly("Draft an entry.");
        assertThat(tester.readResource("ledger://entries/7").text()).as(era).isEqualTo("entry 7");
        assertThat(tester.readResource("notes://today").text()).as(era).isEqualTo("buy milk");
      }
    }
  }

  /** What a refused prompt or resource answers: a JSON-RPC error with the FORBIDDEN code and the scopes. */
  private static final class McpResponseCheck {
    static void forbidden(dev.mcpfusion.testing.McpResponse response, String scope, String text) {
      assertThat(response.isError()).as(response.raw()).isTrue();
      assertThat(response.errorCode()).isEqualTo(-32600);
      assertThat(response.errorMessage()).contains(text).contains("Do not retry")
          .contains("grant the scope " + scope);
      assertThat(response.errorData()).isEqualTo(Map.of("code", "FORBIDDEN",
          "requiredScopes", List.of(scope)));
    }
  }

  @Test
  void aCallersTextNamesNoClaims() {
    Caller caller = Caller.of("alice", "cli", List.of("a"), Map.of("email", "a@example.com"));
    assertThat(caller.toString()).contains("alice").doesNotContain("a@example.com");
    assertThat(Caller.local().missing(List.of("x"))).isEmpty();
    assertThat(caller.missing(List.of("a", "b"))).containsExactly("b");
  }
}
