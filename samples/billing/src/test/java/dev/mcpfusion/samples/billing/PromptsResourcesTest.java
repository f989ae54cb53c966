package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.billing.fixtures.DocsFeatures;
import dev.mcpfusion.samples.billing.fixtures.Snippets;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.CompletionResponse;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.PendingCall;
import dev.mcpfusion.testing.PromptResponse;
import dev.mcpfusion.testing.ResourceResponse;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Prompts, resources, resource templates, completions and resource subscriptions, end to end
 * through the production edge (both protocol eras where the era has the feature).
 */
class PromptsResourcesTest {
  private static final String SECRET = "whsec_";

  private static FusionTester billing(String version) {
    return FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT)
            .register(new DocsFeatures())
            .register(new Snippets()))
        .protocolVersion(version);
  }

  private static String firstOpenInvoice(FusionTester tester) {
    ToolResult open = tester.call("billing", "list_invoices", Map.of("status", "OPEN"));
    return (String) ((Map<?, ?>) ((List<?>) Json.parse(open.dataText())).get(0)).get("id");
  }

  // ---- prompts ---------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  @SuppressWarnings("unchecked")
  void optionalPromptArgumentIsOptionalOnTheWire(String version) {
    try (FusionTester tester = billing(version)) {
      Map<String, Object> overdue = tester.listPrompts().stream()
          .filter(p -> p.get("name").equals("overdue_invoices")).findFirst().orElseThrow();
      assertThat((List<Object>) overdue.get("arguments")).containsExactly(
          Map.of("name", "audience", "description", "Who reads the summary, e.g. the finance team",
              "required", true),
          Map.of("name", "tone", "description", "How the summary should sound; friendly unless told."
              + " One of: FRIENDLY, FIRM.", "required", false));
      Map<String, Object> greet = tester.listPrompts().stream()
          .filter(p -> p.get("name").equals("greet")).findFirst().orElseThrow();
      assertThat(greet.get("title")).isEqualTo("Greeting");
      assertThat(greet.get("description")).isEqualTo("Greets someone by name.");
      assertThat((List<Object>) greet.get("arguments")).containsExactly(Map.of("name", "name",
          "description", "Whom to greet; everyone when absent", "required", false));
      // ...and really optional: the prompt answers without it.
      assertThat(tester.getPrompt("greet", Map.of())).isSuccess()
          .hasTextContaining("Say hello to everyone.");
      assertThat(tester.getPrompt("greet", Map.of("name", "Ada"))).isSuccess()
          .hasTextContaining("Say hello to Ada.");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void presenterBackedPromptPutsStrippedDataInUserContentAndRulesInGuidance(String version) {
    try (FusionTester tester = billing(version)) {
      PromptResponse r = tester.getPrompt("overdue_invoices", Map.of("audience", "the finance team",
          "tone", "FIRM"));
      assertThat(r).isSuccess().doesNotMention(SECRET).doesNotMention("riskScore")
          .doesNotMention("t_777").hasTextContaining("firm and direct summary")
          .hasTextContaining("\"status\":\"OPEN\"");
      assertThat(r.description()).isEqualTo("Summarise the open (unpaid, overdue) invoices for a person");
      List<Map<String, Object>> messages = r.messages();
      assertThat(messages).hasSize(3).allSatisfy(m -> assertThat(m.get("role")).isEqualTo("user"));
      assertThat(r.texts().get(1)).startsWith("[{\"id\":\"INV-").contains("Dataset truncated");
      assertThat(r.texts().get(2)).startsWith("<domain_rules>")
          .contains("Money is in integer cents.");
    }
  }

  @Test
  void promptContentMayBeImageOrEmbeddedResource() {
    try (FusionTester tester = billing("2025-11-25")) {
      PromptResponse r = tester.getPrompt("test_prompt_with_image", null);
      assertThat(r).isSuccess();
      assertThat(r.messages()).extracting(m -> (Object) ((Map<?, ?>) m.get("content")).get("type"))
          .containsExactly("text", "image", "resource");
      assertThat(((Map<?, ?>) r.messages().get(1).get("content")).get("mimeType"))
          .isEqualTo("image/png");
      assertThat(tester.getPrompt("haiku", Map.of())).isSuccess().hasTextContaining("Here is a haiku.");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void unknownPromptIsAnErrorListingThePrompts(String version) {
    try (FusionTester tester = billing(version)) {
      assertThat(tester.getPrompt("overdue", Map.of())).isError(-32602).hasErrorMessageContaining(
          "The prompt \"overdue\" does not exist.",
          "Prompts: overdue_invoices, greet, test_prompt_with_image, haiku.");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void missingPromptArgumentIsAClearError(String version) {
    try (FusionTester tester = billing(version)) {
      PromptResponse r = tester.getPrompt("overdue_invoices", Map.of("tone", "LOUD", "extra", "x"));
      assertThat(r).isError(-32602).hasErrorMessageContaining(
          "Invalid arguments for prompt \"overdue_invoices\":", "\"audience\" is required",
          "\"tone\"", "\"extra\" is not an accepted field",
          "Arguments: audience (required), tone (optional).");
      assertThat(r.errorData()).isInstanceOf(Map.class);
    }
  }

  @Test
  void promptMiddlewareAndContextRunAsForTools() {
    // TenantGuard (the router's @Use) refuses a blank tenant for prompts exactly as for tools.
    try (FusionTester tester = billing("2025-11-25").header("x-tenant-id", " ")) {
      assertThat(tester.getPrompt("overdue_invoices", Map.of("audience", "ops"))).isError(-32602)
          .hasErrorMessageContaining("UNAUTHORIZED", "This call carries no tenant.");
    }
    // Another tenant sees none of the sample tenant's invoices.
    try (FusionTester tester = billing("2025-11-25").header("x-tenant-id", "t_other")) {
      PromptResponse r = tester.getPrompt("overdue_invoices", Map.of("audience", "ops"));
      assertThat(r).isSuccess();
      assertThat(r.texts().get(1)).isEqualTo("[]");
    }
  }

  // ---- resources -------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void presenterBackedResourceNeverCarriesAHiddenSentinel(String version) {
    try (FusionTester tester = billing(version)) {
      ResourceResponse r = tester.readResource("billing://invoices/INV-0001");
      assertThat(r).isSuccess().doesNotMention(SECRET).doesNotMention("riskScore")
          .doesNotMention("tenantId");
      assertThat(r.mimeType()).isEqualTo("application/json");
      assertThat(Json.parse(r.text())).isEqualTo(Json.parse(
          tester.call("billing", "get_invoice", Map.of("id", "INV-0001")).dataText()));
      assertThat(r.contents().get(0).get("uri")).isEqualTo("billing://invoices/INV-0001");
      ResourceResponse open = tester.readResource("billing://invoices/open");
      assertThat(open).isSuccess().doesNotMention(SECRET);
      assertThat(open.text()).startsWith("[{\"id\":\"INV-");
      assertThat(open.contents().get(0).get("_meta").toString()).contains("mcpfusion/truncation");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void resourcesAndTemplatesAreListedTextAndBinaryRead(String version) {
    try (FusionTester tester = billing(version)) {
      assertThat(tester.listResources()).extracting(r -> r.get("uri")).containsExactly(
          "billing://invoices/open", "docs://readme", "docs://logo.png");
      assertThat(tester.listResourceTemplates()).extracting(r -> r.get("uriTemplate"))
          .containsExactly("billing://invoices/{id}", "docs://pages/{page}/sections/{section}");
      assertThat(tester.listResources().get(1)).isEqualTo(Map.of("uri", "docs://readme",
          "name", "readme", "description", "The read-me", "mimeType", "text/markdown"));
      ResourceResponse text = tester.readResource("docs://readme");
      assertThat(text.text()).isEqualTo("# Docs\nRead me.");
      if (version.equals(FusionTester.MODERN)) {
        // 2026-07-28 lists and reads say how long they may be cached: not at all, and privately.
        assertThat(((Number) text.result().get("ttlMs")).longValue()).isZero();
        assertThat(text.result().get("cacheScope")).isEqualTo("private");
        assertThat(text.result().get("resultType")).isEqualTo("complete");
      }
      assertThat(text.mimeType()).isEqualTo("text/markdown");
      ResourceResponse binary = tester.readResource("docs://logo.png");
      assertThat(binary.blob()).isEqualTo(DocsFeatures.LOGO);
      assertThat(binary.mimeType()).isEqualTo("image/png");
      assertThat(tester.readResource("docs://pages/intro/sections/a%20b").text())
          .isEqualTo("Page intro, section a b");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void unknownResourceUriIsAnErrorListingTheResources(String version) {
    try (FusionTester tester = billing(version)) {
      assertThat(tester.readResource("billing://payments/1"))
          .isError(FusionTester.MODERN.equals(version) ? -32602 : -32002)
          .hasErrorMessageContaining("The resource \"billing://payments/1\" does not exist.",
              "Resources: billing://invoices/open, docs://readme, docs://logo.png;",
              "templates: billing://invoices/{id}, docs://pages/{page}/sections/{section}.");
    }
  }

  /**
   * A resource that does not exist is -32002 in the 2025 era and invalid params (-32602) in the
   * 2026-07-28 era (SEP-2164), whether no resource matches the URI or its handler found nothing;
   * the error names the URI in {@code data.uri} in both.
   */
  @Test
  void aMissingResourceIsInvalidParamsIn2026AndResourceNotFoundIn2025() {
    for (String version : List.of("2025-11-25", FusionTester.MODERN)) {
      int expected = FusionTester.MODERN.equals(version) ? -32602 : -32002;
      try (FusionTester tester = billing(version)) {
        var unknown = tester.readResource("test://nonexistent-resource");
        assertThat(unknown).isError(expected);
        assertThat(((Map<?, ?>) unknown.errorData()).get("uri")).isEqualTo("test://nonexistent-resource");
        assertThat(tester.readResource("billing://invoices/INV-9999")).isError(expected)
            .hasErrorMessageContaining("Invoice \"INV-9999\" does not exist.");
        // Every other code is the same in both eras.
        assertThat(tester.readResource("docs://pages/broken/sections/x")).isError(-32603);
      }
    }
  }

  @Test
  void aResourceHandlersErrorsAreClearAndLeakNothing() {
    try (FusionTester tester = billing("2025-11-25")) {
      assertThat(tester.readResource("billing://invoices/INV-9999")).isError(-32002)
          .hasErrorMessageContaining("NOT_FOUND", "Invoice \"INV-9999\" does not exist.");
      assertThat(tester.readResource("docs://pages/missing/sections/x")).isError(-32002)
          .hasErrorMessageContaining("The page \"missing\" does not exist.");
      assertThat(tester.readResource("docs://pages/broken/sections/x")).isError(-32603)
          .hasErrorMessageContaining("[docs/docs://pages/broken/sections/x]", "incident")
          .doesNotMention("hunter2").doesNotMention("IllegalStateException");
    }
  }

  // ---- subscriptions ---------------------------------------------------------------------------

  @Test
  void mutationNotifiesASubscribedResourceAndNotAnUnsubscribedOne() {
    try (FusionTester tester = billing("2025-11-25")) {
      String open = firstOpenInvoice(tester);
      String subscribed = "billing://invoices/" + open;
      assertThat(tester.subscribe(subscribed)).isSuccess();
      assertThat(tester.subscribe("docs://readme")).isSuccess();   // another router: not billing.*
      assertThat(tester.resourceUpdates()).isEmpty();

      assertThat(tester.call("billing", "void_invoice", Map.of("id", open))).isSuccess();
      assertThat(tester.resourceUpdates()).containsExactly(subscribed);

      // A failed mutation (the invoice is no longer open) marks nothing stale.
      assertThat(tester.call("billing", "void_invoice", Map.of("id", open))).isError();
      assertThat(tester.resourceUpdates()).containsExactly(subscribed);

      // Unsubscribed, it is not notified again.
      assertThat(tester.unsubscribe(subscribed)).isSuccess();
      String next = firstOpenInvoice(tester);
      assertThat(tester.call("billing", "void_invoice", Map.of("id", next))).isSuccess();
      assertThat(tester.resourceUpdates()).containsExactly(subscribed);
    }
  }

  @Test
  void aSubscriptionWhoseScopeFailsIsAnInternalErrorThatLeaksNothing() {
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(),
            Exposition.FLAT)
        .subscriptionScope(request -> {
          throw new IllegalStateException("tenant-db-password=hunter2");
        }))) {
      assertThat(tester.subscribe("billing://invoices/INV-0001")).isError(-32603)
          .hasErrorMessageContaining("the subscription to billing://invoices/INV-0001 could not be"
              + " scoped", "incident")
          .doesNotMention("hunter2").doesNotMention("IllegalStateException");
    }
  }

  @Test
  void subscribingToAnUnknownUriIsAnError() {
    try (FusionTester tester = billing("2025-11-25")) {
      assertThat(tester.subscribe("billing://nothing")).isError(-32002)
          .hasErrorMessageContaining("The resource \"billing://nothing\" does not exist.");
    }
  }

  @Test
  void theStatelessEraSubscribesThroughListenNotSubscribe() {
    try (FusionTester tester = billing(FusionTester.MODERN)) {
      assertThat(tester.subscribe("billing://invoices/INV-0001")).isError(-32601)
          .hasErrorMessageContaining("needs a 2025-11-25 session")
          .hasErrorMessageContaining("open a subscriptions/listen stream");
    }
  }

  @Test
  void capabilitiesAdvertisePromptsResourcesWithSubscribeAndCompletions() {
    try (FusionTester tester = billing("2025-11-25")) {
      tester.listPrompts();
      Map<?, ?> init = (Map<?, ?>) Json.parse(tester.rawMessages().get(0));
      @SuppressWarnings("unchecked")
      Map<String, Object> capabilities =
          (Map<String, Object>) ((Map<?, ?>) init.get("result")).get("capabilities");
      assertThat(capabilities).containsKeys("tools", "prompts", "resources", "completions");
      assertThat(((Map<?, ?>) capabilities.get("resources")).get("subscribe")).isEqualTo(true);
      assertThat((Map<?, ?>) capabilities.get("resources")).isNotEmpty();
    }
  }

  /**
   * A 2026-07-28 listen stream in the tester (a connection with a channel of its own, as stdio):
   * acknowledged with the URIs served, then an update of its tenant's mutation only, tagged with
   * its id; cancelled, it hears nothing more and gets no reply.
   */
  @Test
  void aListenStreamHearsItsTenantsMutationUntilItIsCancelled() {
    try (FusionTester tester = billing(FusionTester.MODERN)) {
      String open = firstOpenInvoice(tester);
      String uri = "billing://invoices/" + open;
      PendingCall mine = tester.listen(Map.of("tenant", "t_777"), uri, "billing://nope/1");
      PendingCall theirs = tester.listen(Map.of("tenant", "t_other"), uri);
      List<String> raw = tester.rawMessages();
      assertThat(raw.subList(raw.size() - 2, raw.size()).stream().map(Json::parse).toList())
          .containsExactly(acknowledged(mine.id(), uri), acknowledged(theirs.id(), uri));

      assertThat(tester.callTool("billing_void_invoice", Map.of("id", open),
          Map.of("tenant", "t_777"))).isSuccess();
      assertThat(tester.resourceUpdates()).containsExactly(uri);
      assertThat(tester.rawMessages()).filteredOn(m -> m.contains("resources/updated"))
          .singleElement().satisfies(m -> assertThat(String.valueOf(((Map<?, ?>) ((Map<?, ?>)
              ((Map<?, ?>) Json.parse(m)).get("params")).get("_meta"))
              .get("io.modelcontextprotocol/subscriptionId"))).isEqualTo(String.valueOf(mine.id())));

      mine.cancel();
      theirs.cancel();
      assertThat(tester.server().edge().listenStreams().open()).isZero();
      String next = firstOpenInvoice(tester);
      assertThat(tester.callTool("billing_void_invoice", Map.of("id", next),
          Map.of("tenant", "t_777"))).isSuccess();
      assertThat(tester.resourceUpdates()).containsExactly(uri);
      assertThat(mine.await(java.time.Duration.ofMillis(50))).as("a cancelled stream's reply").isEmpty();
    }
  }

  /** On a connection's channel as over HTTP, one stream past the cap is refused with SERVER_BUSY. */
  @Test
  void aListenStreamPastTheCapIsRefusedOnAChannelToo() {
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(InvoiceStore.sample(),
            Exposition.FLAT).listenStreams(1, java.time.Duration.ofSeconds(15)))
        .protocolVersion(FusionTester.MODERN)) {
      PendingCall first = tester.listen(Map.of(), "billing://invoices/open");
      tester.listen(Map.of(), "billing://invoices/open");
      List<String> raw = tester.rawMessages();
      assertThat(raw.get(raw.size() - 1)).contains("\"code\":-32003").contains("Server busy: 1 listen");
      first.cancel();
      PendingCall third = tester.listen(Map.of(), "billing://invoices/open");
      assertThat(tester.rawMessages().get(tester.rawMessages().size() - 1))
          .contains("notifications/subscriptions/acknowledged").contains("\":" + third.id() + "}");
    }
  }

  private static Object acknowledged(long id, String uri) {
    return Json.parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
        + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":" + id + "},"
        + "\"notifications\":{\"resourceSubscriptions\":[\"" + uri + "\"]}}}");
  }

  /**
   * The 2026-07-28 {@code server/discover} says resources are subscribable (the edge serves
   * {@code subscriptions/listen}) and no list changes (the lists never change while it runs).
   */
  @Test
  void discoverAdvertisesSubscribableResourcesAndNoListChanges() {
    try (FusionTester tester = billing(FusionTester.MODERN)) {
      @SuppressWarnings("unchecked")
      Map<String, Object> capabilities = (Map<String, Object>) tester.request("server/discover",
          Map.of()).result().get("capabilities");
      assertThat(capabilities.get("resources")).asString().contains("subscribe=true")
          .doesNotContain("listChanged=true");
      assertThat(capabilities).containsKeys("prompts", "completions");
      assertThat(capabilities.get("tools")).asString().doesNotContain("listChanged=true");
      assertThat(capabilities.get("prompts")).asString().doesNotContain("listChanged=true");
    }
  }

  // ---- completions -----------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void completionsCompleteTemplateVariablesAndEnumArguments(String version) {
    try (FusionTester tester = billing(version)) {
      CompletionResponse ids = tester.completeResource("billing://invoices/{id}", "id", "inv-000");
      assertThat(ids).isSuccess();
      assertThat(ids.values()).containsExactly("INV-0001", "INV-0002", "INV-0003", "INV-0004",
          "INV-0005", "INV-0006", "INV-0007", "INV-0008", "INV-0009");
      CompletionResponse many = tester.completeResource("billing://invoices/{id}", "id", "INV");
      assertThat(many.values()).hasSize(100);
      assertThat(many.hasMore()).isTrue();
      assertThat(tester.complete("overdue_invoices", "tone", "f").values())
          .containsExactly("FRIENDLY", "FIRM");
      assertThat(tester.complete("overdue_invoices", "audience", "fin").values()).isEmpty();
      assertThat(tester.completeResource("docs://pages/{page}/sections/{section}", "page", "in")
          .values()).containsExactly("intro", "install");
    }
  }

  /** A completer sees the values the client already resolved ({@code context.arguments}). */
  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void aCompleterSeesTheArgumentsAlreadyResolved(String version) {
    try (FusionTester tester = billing(version)) {
      String template = "docs://pages/{page}/sections/{section}";
      assertThat(tester.completeResource(template, "section", "", Map.of("page", "install"))
          .values()).containsExactly("linux", "macos", "windows");
      assertThat(tester.completeResource(template, "section", "l", Map.of("page", "usage"))
          .values()).containsExactly("limits", "logging");
      // Nothing resolved yet: the completer gets an empty map.
      assertThat(tester.completeResource(template, "section", "").values()).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void aMalformedCompletionContextIsAClearError(String version) {
    try (FusionTester tester = billing(version)) {
      Map<String, Object> ref = Map.of("type", "ref/resource",
          "uri", "docs://pages/{page}/sections/{section}");
      Map<String, Object> argument = Map.of("name", "section", "value", "");
      assertThat(tester.request("completion/complete", Map.of("ref", ref, "argument", argument,
          "context", Map.of("arguments", Map.of("page", 3))))).isError(-32602)
          .hasErrorMessageContaining("Invalid params: context.arguments \"page\" must be a string,"
              + " got number.");
      assertThat(tester.request("completion/complete", Map.of("ref", ref, "argument", argument,
          "context", List.of()))).isError(-32602)
          .hasErrorMessageContaining("Invalid params: \"context\" must be an object:"
              + " {\"arguments\": {\"name\": \"value\"}}.");
    }
  }

  @Test
  void onlyACompletionGetsTheCompletionContext() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1")
        .register(new Snippets.PromptWantsCompletion()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/ContextNotProvided] PromptWantsCompletion.misplaced(completion):"
            + " nothing provides @Context CompletionContext.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", FusionTester.MODERN})
  void completionForAnUnknownArgumentIsAClearError(String version) {
    try (FusionTester tester = billing(version)) {
      assertThat(tester.completeResource("billing://invoices/{id}", "invoice", "")).isError(-32602)
          .hasErrorMessageContaining("The resource template \"billing://invoices/{id}\" has no"
              + " argument \"invoice\". Its arguments: id.");
      assertThat(tester.complete("overdue_invoices", "customer", "")).isError(-32602)
          .hasErrorMessageContaining("The prompt \"overdue_invoices\" has no argument"
              + " \"customer\". Its arguments: audience, tone.");
      assertThat(tester.complete("nope", "x", "")).isError(-32602)
          .hasErrorMessageContaining("The prompt \"nope\" does not exist.");
    }
  }

  // ---- build -----------------------------------------------------------------------------------

  @Test
  void twoPromptsWithOneNameFailTheBuild() {
    assertThatThrownBy(() -> FusionServer.builder("x", "1").register(new DocsFeatures())
        .register(new Snippets.Clash()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[fusion/DuplicatePrompt] The prompt name 'greet' is used by"
            + " DocsFeatures.greet and by Clash.greet. Rename one with @Prompt(name = \"...\").");
  }
}
