package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The billing connector's exact wire text, through the real SDK server, in both expositions. */
class BillingWireTest {

  private static FusionTester tester(Exposition exposition) {
    return FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), exposition));
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void listInvoicesShowsTheFirstPageOfFiftyWithTheExactSummary(Exposition exposition) {
    try (FusionTester tester = tester(exposition)) {
      ToolResult r = tester.call("billing", "list_invoices", Map.of());

      assertThat(r).isSuccess().hasNoInvalidation();
      assertThat((List<?>) r.data()).hasSize(50);
      @SuppressWarnings("unchecked")
      String next = (String) ((Map<String, Object>) r.structuredContent().get("truncated")).get("next");
      String call = exposition == Exposition.FLAT ? "billing_list_invoices"
          : "billing (action: list_invoices)";
      assertThat(r.blocks()).contains("<ui_passthrough type=\"summary\">\n"
          + "📊 **Summary**: ⚠️ Dataset truncated. 50 shown, more available. For the next page, call "
          + call + " again with the same arguments and \"cursor\": \"" + next + "\".\n"
          + "</ui_passthrough>");
      assertThat(r.blocks()).contains("<domain_rules>\n"
          + "- id: Invoice ID, e.g. INV-0042\n"
          + "- totalCents: Total in integer cents; divide by 100 for display\n"
          + "- status: draft, open, paid or void\n"
          + "- Money is in integer cents. Divide by 100 before showing it to a person.\n"
          + "</domain_rules>");
      Map<String, Object> structured = r.structuredContent();
      assertThat((List<?>) structured.get("items")).hasSize(50);
      assertThat(structured.get("truncated")).isEqualTo(Map.of("shown", 50, "more", true, "next", next));
    }
  }

  @Test
  void blocksComeInTheDesignedOrder() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      ToolResult r = tester.call("billing", "list_invoices", Map.of("status", "OPEN"));
      List<String> kinds = r.blocks().stream().map(BillingWireTest::kind).collect(Collectors.toList());
      assertThat(kinds).containsExactly("data", "ui_passthrough", "domain_rules", "action_suggestions");
      assertThat(r.blocks().get(3)).isEqualTo("<action_suggestions>\n"
          + "- billing_void_invoice: Open invoices can be voided\n"
          + "</action_suggestions>");
    }
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void notFoundEnvelopeRendersActionsAsTheAgentCallsThemInTheRecoveryToo(Exposition exposition) {
    try (FusionTester tester = tester(exposition)) {
      ToolResult r = tester.call("billing", "get_invoice", Map.of("id", "INV-9999"));
      String action = exposition == Exposition.FLAT
          ? "billing_list_invoices"
          : "billing (action: list_invoices)";
      assertThat(r).isError().hasCode("NOT_FOUND");
      assertThat(r.blocks()).containsExactly("<tool_error code=\"NOT_FOUND\" severity=\"error\">\n"
          + "<message>Invoice \"INV-9999\" does not exist.</message>\n"
          + "<recovery>Call " + action + " first to find valid IDs.</recovery>\n"
          + "<available_actions>\n"
          + "  <action>" + action + "</action>\n"
          + "</available_actions>\n"
          + "<details>\n"
          + "  <detail key=\"invoice_id\">INV-9999</detail>\n"
          + "</details>\n"
          + "</tool_error>");
      assertThat(r.structuredContent()).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void aResourcesNotFoundRecoveryNamesTheActionAsTheAgentCallsIt(Exposition exposition) {
    for (String version : List.of(FusionTester.DEFAULT_VERSION, FusionTester.MODERN)) {
      try (FusionTester tester = FusionTester.of(
          dev.mcpfusion.samples.billing.BillingConnector.builder(InvoiceStore.sample(), exposition))
          .protocolVersion(version)) {
        dev.mcpfusion.testing.ResourceResponse r = tester.readResource("billing://invoices/INV-9999");
        String recovery = "Call " + (exposition == Exposition.FLAT
            ? "billing_list_invoices" : "billing (action: list_invoices)") + " first to find valid IDs.";
        assertThat(r.isError()).isTrue();
        assertThat(r.errorMessage()).contains("<recovery>" + recovery + "</recovery>");
        assertThat(((Map<?, ?>) r.errorData()).get("recovery")).isEqualTo(recovery);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void successfulVoidStartsWithTheCacheInvalidationMark(Exposition exposition) {
    try (FusionTester tester = tester(exposition)) {
      String openId = openInvoiceId(tester);
      ToolResult r = tester.call("billing", "void_invoice", Map.of("id", openId));

      assertThat(r).isSuccess().invalidates("billing.*");
      assertThat(r.blocks().get(0))
          .isEqualTo("<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
      assertThat(r.structuredContent()).containsEntry("status", "VOID");

      ToolResult again = tester.call("billing", "void_invoice", Map.of("id", openId));
      assertThat(again).isError().hasCode("CONFLICT").hasNoInvalidation();
      assertThat(again.raw()).doesNotContain("cache_invalidation");
    }
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void queriesNeverCarryAnInvalidationMark(Exposition exposition) {
    try (FusionTester tester = tester(exposition)) {
      assertThat(tester.call("billing", "list_invoices", Map.of()).raw()).doesNotContain("cache_invalidation");
      assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-0001")).raw())
          .doesNotContain("cache_invalidation");
      assertThat(tester.call("billing", "void_invoice", Map.of("id", "INV-9999")).raw())
          .doesNotContain("cache_invalidation");
    }
  }

  @Test
  void groupedDescriptionIsTheDesignedText() {
    try (FusionTester tester = tester(Exposition.GROUPED)) {
      List<ToolInfo> tools = tester.listTools();
      assertThat(tools).extracting(ToolInfo::name).containsExactly("billing");
      assertThat(tools.get(0).description()).isEqualTo(
          "Invoices: list, inspect and void them. Select operation via the `action` parameter."
              + " Actions: list_invoices, get_invoice, void_invoice\n"
              + "\n"
              + "Workflow:\n"
              + "- 'list_invoices': List invoices, newest first [Cache-Control: no-store]\n"
              + "- 'get_invoice': Get one invoice. Requires: id\n"
              + "- 'void_invoice': Void an open invoice. Requires: id [DESTRUCTIVE]");
      Map<String, Object> output = tools.get(0).outputSchema();
      assertThat(output).containsEntry("type", "object").containsKey("anyOf");
      ToolInfo.Hints hints = tools.get(0).annotations();
      assertThat(hints.readOnlyHint()).isFalse();
      assertThat(hints.destructiveHint()).isTrue();
      assertThat(hints.idempotentHint()).isFalse();
      assertThat(hints.openWorldHint()).isFalse();
    }
  }

  @Test
  void flatToolsAreNamedAndHintedPerVerb() {
    try (FusionTester tester = tester(Exposition.FLAT)) {
      List<ToolInfo> tools = tester.listTools();
      assertThat(tools).extracting(ToolInfo::name)
          .containsExactly("billing_list_invoices", "billing_get_invoice", "billing_void_invoice");
      ToolInfo list = tools.get(0);
      assertThat(list.description()).isEqualTo("List invoices, newest first [Cache-Control: no-store]");
      assertThat(list.annotations().readOnlyHint()).isTrue();
      assertThat(list.annotations().destructiveHint()).isFalse();
      ToolInfo voidTool = tools.get(2);
      assertThat(voidTool.annotations().destructiveHint()).isTrue();
      assertThat(voidTool.annotations().readOnlyHint()).isFalse();
      assertThat(voidTool.annotations().idempotentHint()).isNotNull();
      assertThat(voidTool.annotations().openWorldHint()).isNotNull();
    }
  }

  @Test
  void aNullTheViewDoesNotAllowIsAnInternalErrorNotASchemaFailure() {
    InvoiceStore store = InvoiceStore.sample();
    store.put(new dev.mcpfusion.samples.billing.model.Invoice("INV-0500", 10, null, "whsec_x", Map.of(),
        dev.mcpfusion.samples.billing.store.Tenant.SAMPLE_TENANT));
    try (FusionTester tester = FusionTester.of(BillingConnector.builder(store, Exposition.FLAT))) {
      ToolResult r = tester.call("billing", "get_invoice", Map.of("id", "INV-0500"));
      assertThat(r).isError().hasCode("INTERNAL_ERROR");
      assertThat(r.raw()).doesNotContain("validation failed").doesNotContain("@Nullable").doesNotContain("whsec_x");
    }
  }

  static String openInvoiceId(FusionTester tester) {
    ToolResult open = tester.call("billing", "list_invoices", Map.of("status", "OPEN"));
    @SuppressWarnings("unchecked")
    Map<String, Object> first = ((List<Map<String, Object>>) open.data()).get(0);
    return (String) first.get("id");
  }

  private static String kind(String block) {
    if (!block.startsWith("<")) {
      return "data";
    }
    int end = block.indexOf(block.startsWith("<ui_passthrough") || block.startsWith("<cache") ? ' ' : '>');
    return block.substring(1, end);
  }
}
