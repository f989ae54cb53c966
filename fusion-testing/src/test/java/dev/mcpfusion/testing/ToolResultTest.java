package dev.mcpfusion.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.UiBlock;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ToolResult reads the wire formats from hand-made results and reply texts. */
class ToolResultTest {

  /** A {@code tools/call} result tree, as the SDK's client would have received it. */
  static Map<String, Object> result(boolean isError, Object structured, Map<String, Object> meta, String... blocks) {
    List<Map<String, Object>> content = new java.util.ArrayList<>();
    for (String b : blocks) {
      content.add(Map.of("type", "text", "text", b));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("content", content);
    result.put("isError", isError);
    if (structured != null) {
      result.put("structuredContent", structured);
    }
    if (meta != null) {
      result.put("_meta", meta);
    }
    return result;
  }

  static final String VOID_MARK = "<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />";

  static Map<String, Object> voidedInvoice() {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("mcpfusion/invalidation", Map.of("cause", "billing.void_invoice", "domains", List.of("billing.*")));
    meta.put("mcpfusion/rules", List.of("totalCents: Total in integer cents; divide by 100 for display",
        "Money is in integer cents. Divide by 100 before showing it to a person."));
    meta.put("mcpfusion/suggestions", List.of(
        Map.of("action", "billing.get_invoice", "reason", "Check it", "arguments", Map.of("id", "INV-7"))));
    return result(false,
        Map.of("id", "INV-7", "totalCents", 1200, "status", "VOID"),
        meta,
        VOID_MARK,
        "{\"id\":\"INV-7\",\"totalCents\":1200,\"status\":\"VOID\",\"rate\":0.25}",
        "<domain_rules>\n- totalCents: Total in integer cents; divide by 100 for display\n"
            + "- Money is in integer cents. Divide by 100 before showing it to a person.\n</domain_rules>",
        "<action_suggestions>\n- billing_get_invoice {\"id\":\"INV-7\"}: Check it\n</action_suggestions>");
  }

  @Test
  void readsTheSuccessfulMutationParts() {
    ToolResult r = ToolResult.of(voidedInvoice(), null);

    assertThat(r.isSuccess()).isTrue();
    assertThat(r.isError()).isFalse();
    assertThat(r.blocks()).hasSize(4).first().isEqualTo(VOID_MARK);
    assertThat(r.content()).hasSize(4).first().isEqualTo(Map.of("type", "text", "text", VOID_MARK));
    assertThat(r.dataText()).startsWith("{\"id\":\"INV-7\"");
    assertThat(r.data()).isEqualTo(Map.of("id", "INV-7", "totalCents", 1200, "status", "VOID",
        "rate", new BigDecimal("0.25")));
    assertThat(r.structuredContent()).containsEntry("status", "VOID");
    assertThat(r.rules()).hasSize(2).last().asString().contains("integer cents");
    assertThat(r.suggestions()).containsExactly(
        Suggestion.of("billing.get_invoice", "Check it", Map.of("id", "INV-7")));
    assertThat(r.invalidation()).isEqualTo(new ToolResult.Invalidation("billing.void_invoice", List.of("billing.*")));
    assertThat(r.truncation()).isNull();
    assertThat(r.errorCode()).isNull();
    assertThat(r.errorText()).isNull();
    assertThat(r.jsonRpcError()).isNull();
    assertThat(r.result()).containsEntry("isError", false).containsKey("content");
  }

  @Test
  void readsACutCollectionAndItsSummary() {
    String summary = "📊 **Summary**: ⚠️ Dataset truncated. 2 shown, 8 hidden. Use filters to narrow results.";
    ToolResult r = ToolResult.of(result(false,
        Map.of("items", List.of(Map.of("id", "a"), Map.of("id", "b")), "truncated", Map.of("shown", 2, "hidden", 8)),
        Map.of("mcpfusion/truncation", Map.of("shown", 2, "hidden", 8)),
        "[{\"id\":\"a\"},{\"id\":\"b\"}]",
        "<ui_passthrough type=\"summary\">\n" + summary + "\n</ui_passthrough>",
        "<ui_passthrough type=\"chart\">\nx &lt; y &amp;&amp; z\n</ui_passthrough>",
        "<ui_passthrough type=\"mermaid\" title=\"A &quot;b&quot; &lt;c&gt;\">\ngraph LR; a--&gt;b\n"
            + "</ui_passthrough>"), null);

    assertThat(r.data()).isEqualTo(List.of(Map.of("id", "a"), Map.of("id", "b")));
    assertThat(r.truncation()).isEqualTo(new ToolResult.Truncation(2, 8L, false));
    assertThat(r.uiBlocks()).containsExactly(UiBlock.summary(summary), new UiBlock("chart", "x < y && z"),
        UiBlock.mermaid("A \"b\" <c>", "graph LR; a-->b"));
    FusionAssertions.assertThat(r).hasUiBlocks(UiBlock.summary(summary),
        new UiBlock("chart", "x < y && z"), UiBlock.mermaid("A \"b\" <c>", "graph LR; a-->b"));
  }

  @Test
  void readsUnknownSizeTruncation() {
    ToolResult r = ToolResult.of(result(false, Map.of("items", List.of()),
        Map.of("mcpfusion/truncation", Map.of("shown", 50, "more", true)), "[]"), null);

    assertThat(r.truncation()).isEqualTo(new ToolResult.Truncation(50, null, true));
  }

  @Test
  void voidAndStringValuesHaveDataTextButNoJsonData() {
    ToolResult ok = ToolResult.of(result(false, Map.of("result", "OK"), null, "OK"), null);
    ToolResult text = ToolResult.of(result(false, Map.of("result", "INV-1"), null, "INV-1"), null);
    ToolResult number = ToolResult.of(result(false, Map.of("result", 42), null, "42"), null);

    assertThat(ok.dataText()).isEqualTo("OK");
    assertThat(ok.data()).isNull();
    assertThat(text.data()).isNull();
    assertThat(number.data()).isEqualTo(42);
  }

  @Test
  void readsAToolErrorFromMeta() {
    String envelope = "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n"
        + "<message>Invoice \"INV-999\" does not exist.</message>\n"
        + "<recovery>Call billing.list_invoices first to find valid IDs.</recovery>\n"
        + "<available_actions>\n  <action>billing_list_invoices</action>\n</available_actions>\n"
        + "<details>\n  <detail key=\"invoice_id\">INV-999</detail>\n</details>\n"
        + "<retry_after>5 seconds</retry_after>\n"
        + "</tool_error>";
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", "NOT_FOUND");
    error.put("severity", "error");
    error.put("recovery", "Call billing.list_invoices first to find valid IDs.");
    error.put("actions", List.of("billing_list_invoices"));
    error.put("details", Map.of("invoice_id", "INV-999"));
    error.put("retryAfterSeconds", 5);
    ToolResult r = ToolResult.of(result(true, null, Map.of("mcpfusion/error", error), envelope), null);

    assertThat(r.isError()).isTrue();
    assertThat(r.isWarning()).isFalse();
    assertThat(r.errorCode()).isEqualTo("NOT_FOUND");
    assertThat(r.severity()).isEqualTo("error");
    assertThat(r.recovery()).isEqualTo("Call billing.list_invoices first to find valid IDs.");
    assertThat(r.actions()).containsExactly("billing_list_invoices");
    assertThat(r.details()).containsExactly(Map.entry("invoice_id", "INV-999"));
    assertThat(r.retryAfterSeconds()).isEqualTo(5L);
    assertThat(r.errorText()).isEqualTo(envelope);
    assertThat(r.dataText()).isNull();
    assertThat(r.data()).isNull();
  }

  @Test
  void readsAnErrorFromItsEnvelopeWhenMetaIsMissing() {
    String envelope = "<tool_error code=\"ALREADY_PAID\" severity=\"warning\">\n"
        + "<message>Paid &amp; closed &lt;ok&gt;.</message>\n"
        + "<recovery>Nothing to do &lt;really&gt;.</recovery>\n"
        + "<available_actions>\n  <action>billing (action: list_invoices)</action>\n</available_actions>\n"
        + "<details>\n  <detail key=\"a&quot;b\">x &lt; y</detail>\n</details>\n"
        + "<retry_after>1 second</retry_after>\n"
        + "</tool_error>";
    ToolResult r = ToolResult.of(result(true, null, null, envelope), null);

    assertThat(r.errorCode()).isEqualTo("ALREADY_PAID");
    assertThat(r.isWarning()).isTrue();
    assertThat(r.recovery()).isEqualTo("Nothing to do <really>.");
    assertThat(r.actions()).containsExactly("billing (action: list_invoices)");
    assertThat(r.details()).containsExactly(Map.entry("a\"b", "x < y"));
    assertThat(r.retryAfterSeconds()).isEqualTo(1L);
  }

  @Test
  void readsValidationErrors() {
    String envelope = "<validation_error action=\"billing/get_invoice\">\n"
        + "<field name=\"id\">must match \"INV-\\d+\" You sent: 'abc'. Expected format: INV-\\d+.</field>\n"
        + "<field name=\"lines[2].qty\">is required. You sent: nothing.</field>\n"
        + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        + "</validation_error>";
    ToolResult fromText = ToolResult.of(result(true, null, null, envelope), null);
    ToolResult fromMeta = ToolResult.of(result(true, null, Map.of("mcpfusion/error", Map.of(
        "code", "VALIDATION_ERROR", "severity", "error",
        "fields", List.of(Map.of("path", "id", "message", "must match"))) ), envelope), null);

    assertThat(fromText.errorCode()).isEqualTo("VALIDATION_ERROR");
    assertThat(fromText.recovery()).startsWith("Fix the fields above");
    assertThat(fromText.fieldErrors()).extracting(ToolResult.FieldError::path).containsExactly("id", "lines[2].qty");
    assertThat(fromMeta.fieldErrors()).containsExactly(new ToolResult.FieldError("id", "must match"));
  }

  @Test
  void readsAJsonRpcErrorReply() {
    String message = "<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n"
        + "<message>The tool \"x\" does not exist.</message>\n"
        + "<recovery>Choose one of the available tools and call it again.</recovery>\n"
        + "<available_tools>\n  <tool>billing_list_invoices</tool>\n</available_tools>\n"
        + "</tool_error>";
    String raw = "{\"jsonrpc\":\"2.0\",\"id\":\"a-3\",\"error\":{\"code\":-32602,\"message\":"
        + quoteJson(message) + ",\"data\":{\"code\":\"UNKNOWN_TOOL\",\"available\":[\"billing_list_invoices\"]}}}";

    ToolResult r = ToolResult.fromReply(raw);

    assertThat(r.isError()).isTrue();
    assertThat(r.result()).isNull();
    assertThat(r.jsonRpcError().code()).isEqualTo(-32602);
    assertThat(r.jsonRpcError().data()).isEqualTo(
        Map.of("code", "UNKNOWN_TOOL", "available", List.of("billing_list_invoices")));
    assertThat(r.errorCode()).isEqualTo("UNKNOWN_TOOL");
    assertThat(r.errorText()).isEqualTo(message);
    assertThat(r.blocks()).containsExactly(message);
    assertThat(r.recovery()).isEqualTo("Choose one of the available tools and call it again.");
    assertThat(r.severity()).isEqualTo("error");
    assertThat(r.raw()).isEqualTo(raw);
    assertThat(r.meta()).isEmpty();
    assertThat(r.toString()).startsWith("JSON-RPC error -32602, data {\"code\":\"UNKNOWN_TOOL\"")
        .contains("\n  <message>The tool \"x\" does not exist.</message>\n");
  }

  @Test
  void readsASuccessfulReplyText() {
    String raw = "{\"jsonrpc\":\"2.0\",\"id\":\"a-4\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
        + "\"{\\\"id\\\":\\\"INV-1\\\"}\"}],\"isError\":false,\"structuredContent\":{\"id\":\"INV-1\"},"
        + "\"_meta\":{\"mcpfusion/rules\":[\"r1\"]}}}";

    ToolResult r = ToolResult.fromReply(raw);

    assertThat(r.isSuccess()).isTrue();
    assertThat(r.data()).isEqualTo(Map.of("id", "INV-1"));
    assertThat(r.structuredContent()).isEqualTo(Map.of("id", "INV-1"));
    assertThat(r.rules()).containsExactly("r1");
    assertThat(r.result()).containsEntry("isError", false);
    assertThat(r.toString()).isEqualTo("tool result, 1 block\n"
        + "  [0] {\"id\":\"INV-1\"}\n"
        + "  structuredContent {\"id\":\"INV-1\"}\n"
        + "  _meta {\"mcpfusion/rules\":[\"r1\"]}\n");
  }

  static String quoteJson(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
