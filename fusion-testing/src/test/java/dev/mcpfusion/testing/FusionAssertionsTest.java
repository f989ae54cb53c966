package dev.mcpfusion.testing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static dev.mcpfusion.testing.ToolResultTest.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The assertions pass on matching replies and fail with a message that shows the reply. */
class FusionAssertionsTest {
  private final ToolResult voided = ToolResult.of(ToolResultTest.voidedInvoice(), null);

  private static final String NESTED_RAW = "{\"jsonrpc\":\"2.0\",\"id\":\"x-1\",\"result\":{"
      + "\"content\":[{\"type\":\"text\",\"text\":\"[{\\\"id\\\":\\\"a\\\",\\\"lines\\\":[{\\\"sku\\\":\\\"s1\\\"}]}]\"}],"
      + "\"isError\":false,"
      + "\"structuredContent\":{\"items\":[{\"id\":\"a\",\"lines\":[{\"sku\":\"s1\"}]}]},"
      + "\"_meta\":{\"mcpfusion/rules\":[]}}}";

  @Test
  void aSuccessfulMutationReadsNaturally() {
    assertThat(voided)
        .isSuccess()
        .invalidates("billing.*")
        .hasRuleContaining("integer cents")
        .suggests("billing.get_invoice")
        .suggests("billing.get_invoice", Map.of("id", "INV-7"))
        .doesNotSuggest("billing.void_invoice")
        .hasNoField("webhookSecret")
        .hasField("totalCents")
        .hasBlockCount(4)
        .hasBlock(ToolResultTest.VOID_MARK)
        .hasBlockContaining("<domain_rules>")
        .isNotTruncated();
    assertThat(voided).data().isObject().hasField("status").hasNoField("tenantId")
        .hasValue("totalCents", 1200L).hasValue("status", "VOID");
    assertThat(voided).structuredContent().hasSize(3);
  }

  @Test
  void hasNoFieldSearchesEveryDepthOfDataStructuredContentAndTheReply() {
    ToolResult nested = ToolResult.fromReply(NESTED_RAW);

    assertThat(nested).hasNoField("secret").data().hasNoField("secret").hasValue("[0].lines[0].sku", "s1");

    assertThatThrownBy(() -> assertThat(nested).hasNoField("sku"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting no field \"sku\" at any depth")
        .hasMessageContaining("data $[0].lines[0].sku")
        .hasMessageContaining("structuredContent $.items[0].lines[0].sku")
        .hasMessageContaining("reply $.result.content[0].text<json>[0].lines[0].sku")
        .hasMessageContaining("Reply: tool result, 1 block\n  [0] [{\"id\":\"a\",\"lines\":[{\"sku\":\"s1\"}]}]");
    assertThatThrownBy(() -> assertThat(nested).data().hasNoField("sku"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("$[0].lines[0].sku");
  }

  @Test
  void hasNoFieldSeesFieldsThatOnlyTheMetaCarries() {
    ToolResult leaky = ToolResult.fromReply("{\"jsonrpc\":\"2.0\",\"id\":\"x-2\",\"result\":{"
        + "\"content\":[{\"type\":\"text\",\"text\":\"OK\"}],\"structuredContent\":{\"result\":\"OK\"},"
        + "\"_meta\":{\"mcpfusion/suggestions\":[{\"action\":\"a.b\",\"reason\":\"r\","
        + "\"arguments\":{\"webhookSecret\":\"s\"}}]}}}");

    assertThatThrownBy(() -> assertThat(leaky).hasNoField("webhookSecret"))
        .hasMessageContaining("reply $.result._meta.mcpfusion/suggestions[0].arguments.webhookSecret");
  }

  @Test
  void errorAssertions() {
    ToolResult warning = ToolResult.of(result(true, null, Map.of("mcpfusion/error", Map.of(
        "code", "ALREADY_PAID", "severity", "warning", "recovery", "Nothing to do.",
        "actions", List.of("billing_list_invoices"))),
        "<tool_error code=\"ALREADY_PAID\" severity=\"warning\">\n<message>Paid.</message>\n</tool_error>"), null);

    assertThat(warning).isError().isWarning().hasCode("ALREADY_PAID")
        .hasRecovery("Nothing to do.").hasRecoveryContaining("Nothing")
        .hasActions("billing_list_invoices")
        .hasErrorTextContaining("<message>Paid.</message>")
        .hasNoInvalidation();
  }

  @Test
  void failuresNameWhatWasExpectedAndShowTheReply() {
    assertThatThrownBy(() -> assertThat(voided).isError())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting the call to fail, but it succeeded")
        .hasMessageContaining("INV-7");
    assertThatThrownBy(() -> assertThat(voided).hasNoInvalidation())
        .hasMessageContaining("Expecting no invalidation")
        .hasMessageContaining("billing.void_invoice");
    assertThatThrownBy(() -> assertThat(voided).suggests("billing.refund"))
        .hasMessageContaining("Expecting a suggestion of \"billing.refund\"")
        .hasMessageContaining("billing.get_invoice");
    assertThatThrownBy(() -> assertThat(voided).hasRuleContaining("euros"))
        .hasMessageContaining("Expecting a rule containing \"euros\"");
    assertThatThrownBy(() -> assertThat(voided).isTruncated(50, 950))
        .hasMessageContaining("Expecting a truncation of 50 shown, 950 hidden, but was null");
    assertThatThrownBy(() -> assertThat(voided).invalidates("crm.*"))
        .hasMessageContaining("Expecting an invalidation of \"crm.*\"");
    assertThatThrownBy(() -> assertThat(voided).data().hasValue("status", "OPEN"))
        .hasMessageContaining("Expecting status to be OPEN, but was VOID");

    ToolResult notFound = ToolResult.of(result(true, null, Map.of("mcpfusion/error",
        Map.of("code", "NOT_FOUND", "severity", "error")), "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n</tool_error>"), null);
    assertThatThrownBy(() -> assertThat(notFound).isSuccess())
        .hasMessageContaining("Expecting the call to succeed, but it failed with NOT_FOUND");
    assertThatThrownBy(() -> assertThat(notFound).hasCode("CONFLICT"))
        .hasMessageContaining("Expecting error code \"CONFLICT\", but was \"NOT_FOUND\"");
    assertThatThrownBy(() -> assertThat(notFound).isWarning())
        .hasMessageContaining("Expecting a warning, but the severity was \"error\"");
  }

  @Test
  void truncationAssertions() {
    ToolResult cut = ToolResult.of(result(false, Map.of("items", List.of()),
        Map.of("mcpfusion/truncation", Map.of("shown", 50, "hidden", 950)), "[]",
        "<ui_passthrough type=\"summary\">\nDataset truncated.\n</ui_passthrough>"), null);
    ToolResult more = ToolResult.of(result(false, Map.of("items", List.of()),
        Map.of("mcpfusion/truncation", Map.of("shown", 50, "more", true)), "[]"), null);

    assertThat(cut).isTruncated(50, 950).hasUiBlockContaining("summary", "truncated");
    assertThat(more).isTruncatedWithMore(50);
    assertThatThrownBy(() -> assertThat(more).isTruncated(50, 950)).isInstanceOf(AssertionError.class);
    assertThat(cut.truncation().hidden()).isEqualTo(950L);
  }
}
