package dev.mcpfusion.samples.billing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.samples.billing.fixtures.OrderEntryTools;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The framework's own envelopes, asserted as full text: the format is the contract. */
class EnvelopeTest {
  /** The tail every GROUPED discriminator error shares: what to do, and the actions to do it with. */
  private static final String GROUPED_RECOVERY_AND_ACTIONS =
      "<recovery>Choose one of the available actions and call the tool again.</recovery>\n"
          + "<available_actions>\n"
          + "  <action>billing (action: list_invoices)</action>\n"
          + "  <action>billing (action: get_invoice)</action>\n"
          + "  <action>billing (action: void_invoice)</action>\n"
          + "</available_actions>\n"
          + "</tool_error>";


  @Test
  void oneValidationErrorListsEveryBadField() {
    try (FusionTester tester = FusionTester.of(new OrderEntryTools())) {
      Map<String, Object> args = new LinkedHashMap<>();
      args.put("customerId", 5);
      args.put("totalCent", 100);
      args.put("currency", "abc");

      ToolResult r = tester.call("entry", "create_invoice", args);

      assertThat(r).isError().hasCode("VALIDATION_ERROR");
      assertThat(r.blocks()).containsExactly("<validation_error action=\"entry/create_invoice\">\n"
          + "<field name=\"customerId\">expected string but was number. You sent: 5.</field>\n"
          + "<field name=\"totalCent\">is not an accepted field (did you mean \"totalCents\"?). You sent: 100.</field>\n"
          + "<field name=\"totalCents\">is required. You sent: nothing.</field>\n"
          + "<field name=\"currency\">must match \"[A-Z]{3}\" You sent: 'abc'. Expected format: [A-Z]{3}.</field>\n"
          + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
          + "</validation_error>");
    }
  }

  @Test
  void longSentStringsAreCutAt47Characters() {
    try (FusionTester tester = FusionTester.of(new OrderEntryTools())) {
      String longValue = "x".repeat(60);
      ToolResult r = tester.call("entry", "create_invoice",
          Map.of("customerId", "C-7", "totalCents", 100, "currency", longValue));
      assertThat(r.blocks().get(0)).contains("You sent: '" + "x".repeat(47) + "…'.");
    }
  }

  @Test
  void unknownToolIsAJsonRpcInvalidParamsErrorListingTheTools() {
    try (FusionTester tester = FusionTester.of(
        BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT))) {
      ToolResult r = tester.callTool("billing_refund_all", Map.of());

      assertThat(r).hasCode("UNKNOWN_TOOL");
      assertThat(r.jsonRpcError().code()).isEqualTo(-32602);
      assertThat(r.jsonRpcError().message()).isEqualTo("<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n"
          + "<message>The tool \"billing_refund_all\" does not exist.</message>\n"
          + "<recovery>Choose one of the available tools and call it again.</recovery>\n"
          + "<available_tools>\n"
          + "  <tool>billing_list_invoices</tool>\n"
          + "  <tool>billing_get_invoice</tool>\n"
          + "  <tool>billing_void_invoice</tool>\n"
          + "</available_tools>\n"
          + "</tool_error>");
      assertThat(r.jsonRpcError().data()).isEqualTo(Map.of("code", "UNKNOWN_TOOL", "available",
          java.util.List.of("billing_list_invoices", "billing_get_invoice", "billing_void_invoice")));
    }
  }

  @Test
  void unknownActionListsTheValidActions() {
    try (FusionTester tester = FusionTester.of(
        BillingConnector.builder(InvoiceStore.sample(), Exposition.GROUPED))) {
      ToolResult r = tester.callTool("billing", Map.of("action", "refund_all"));

      assertThat(r).isError().hasCode("UNKNOWN_ACTION");
      assertThat(r.blocks()).containsExactly("<tool_error code=\"UNKNOWN_ACTION\" severity=\"error\">\n"
          + "<message>The action \"refund_all\" does not exist in billing.</message>\n"
          + GROUPED_RECOVERY_AND_ACTIONS);
    }
  }

  @Test
  void missingDiscriminatorSaysWhichFieldIsMissing() {
    try (FusionTester tester = FusionTester.of(
        BillingConnector.builder(InvoiceStore.sample(), Exposition.GROUPED))) {
      ToolResult r = tester.callTool("billing", Map.of("id", "INV-0001"));

      assertThat(r).isError().hasCode("MISSING_DISCRIMINATOR");
      assertThat(r.blocks()).containsExactly("<tool_error code=\"MISSING_DISCRIMINATOR\" severity=\"error\">\n"
          + "<message>The required field \"action\" is missing.</message>\n"
          + GROUPED_RECOVERY_AND_ACTIONS);
    }
  }

  @Test
  void invalidDiscriminatorNamesTheJsonType() {
    try (FusionTester tester = FusionTester.of(
        BillingConnector.builder(InvoiceStore.sample(), Exposition.GROUPED))) {
      ToolResult r = tester.callTool("billing", Map.of("action", 7));
      assertThat(r).isError().hasCode("INVALID_DISCRIMINATOR");
      assertThat(r.blocks().get(0)).contains("<message>Field \"action\" must be a string, got number.</message>");
    }
  }

  @Test
  void unexpectedExceptionIsAnInternalErrorWithoutItsText() {
    try (FusionTester tester = FusionTester.of(new OrderEntryTools())) {
      ToolResult r = tester.call("entry", "explode", Map.of());

      assertThat(r).isError().hasCode("INTERNAL_ERROR");
      assertThat(r.blocks()).hasSize(1);
      assertThat(r.blocks().get(0)).matches("<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n"
          + "<message>\\[entry/explode\\] The tool failed unexpectedly \\(incident [0-9a-f]{12}\\)\\.</message>\n"
          + "<recovery>Do not retry with the same arguments; tell the user the tool failed\\.</recovery>\n"
          + "</tool_error>");
      assertThat(r.raw()).doesNotContain("hunter2", "10.0.0.5", "IllegalStateException", "jdbc");
    }
  }

  @Test
  void groupedErrorsRenderLogicalReferencesAsGroupedCalls() {
    FusionServer.Builder builder = BillingConnector.builder(InvoiceStore.sample(), Exposition.GROUPED);
    try (FusionTester tester = FusionTester.of(builder)) {
      ToolResult r = tester.call("billing", "get_invoice", Map.of("id", "INV-9999"));
      assertThat(r).isError().hasCode("NOT_FOUND").hasRecovery("Call billing (action: list_invoices) first to find valid IDs.");
      assertThat(r.actions()).containsExactly("billing (action: list_invoices)");
    }
  }
}
