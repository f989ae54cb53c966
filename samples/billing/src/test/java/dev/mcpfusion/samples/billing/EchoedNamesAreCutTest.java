package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.samples.billing.fixtures.DocsFeatures;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.McpResponse;
import dev.mcpfusion.testing.ToolResult;
import java.util.LinkedHashMap;
import dev.mcpfusion.samples.billing.fixtures.RecordingTracer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whatever an agent sends that a reply repeats — a tool, action, prompt or argument name, a URI —
 * is repeated whole when short, and cut at {@link Echo#MAX_CHARS} characters with its length said
 * when not: a 100 kB name never comes back as a 100 kB error.
 */
class EchoedNamesAreCutTest {
  /** Longer than any name may be; for a JSON member name, under the parser's 50,000 limit. */
  private static final String HUGE = "x".repeat(100_000);
  private static final String HUGE_KEY = "k".repeat(40_000);
  private static final String HUGE_QUOTED = "\"" + "x".repeat(Echo.MAX_CHARS) + "\u2026\" (100000 characters)";
  private static final String KEY_CUT = "k".repeat(Echo.MAX_CHARS) + "\u2026";
  /** What a reply repeating one cut name (and listing what exists) stays under. */
  private static final int SHORT = 3_000;

  private static FusionTester billing(Exposition exposition) {
    return FusionTester.of(BillingConnector.builder(InvoiceStore.sample(), exposition)
        .register(new DocsFeatures()));
  }

  private static String shortRaw(String raw) {
    assertThat(raw.length()).isLessThan(SHORT);
    return raw;
  }

  @Test
  void anUnknownToolNameIsCut() {
    try (FusionTester tester = billing(Exposition.FLAT)) {
      ToolResult r = tester.callTool(HUGE, Map.of());
      shortRaw(r.raw());
      assertThat(r.jsonRpcError().message())
          .contains("<message>The tool " + HUGE_QUOTED + " does not exist.</message>");
      assertThat(Json.write(r.jsonRpcError().data())).doesNotContain("xxx");
    }
  }

  @Test
  void anUnknownToolsSpanNamesItCut() {
    RecordingTracer tracer = new RecordingTracer();
    try (FusionTester tester = billing(Exposition.FLAT).tracer(tracer)) {
      tester.callTool(HUGE, Map.of());
    }
    assertThat(tracer.calls()).hasSize(1);
    RecordingTracer.Span call = tracer.calls().get(0);
    String span = call.name + " " + call.attributes + " " + call.status + " " + call.exceptions;
    assertThat(tracer.dump()).doesNotContain(HUGE);
    assertThat(span.length()).isLessThan(SHORT);
    assertThat(span).contains("The tool " + HUGE_QUOTED + " does not exist.");
  }

  @Test
  void anUnknownActionIsCut() {
    try (FusionTester tester = billing(Exposition.GROUPED)) {
      ToolResult r = tester.callTool("billing", Map.of("action", HUGE));
      shortRaw(r.raw());
      assertThat(r.errorCode()).isEqualTo("UNKNOWN_ACTION");
      assertThat(r.errorText())
          .contains("<message>The action " + HUGE_QUOTED + " does not exist in billing.</message>");
    }
  }

  @Test
  void anUnknownArgumentNameIsCut() {
    try (FusionTester tester = billing(Exposition.FLAT)) {
      ToolResult r = tester.callTool("billing_get_invoice", Map.of("id", "INV-0001", HUGE_KEY, 1));
      shortRaw(r.raw());
      assertThat(r.errorCode()).isEqualTo("VALIDATION_ERROR");
      assertThat(r.errorText()).contains("<field name=\"" + KEY_CUT + "\">is not an accepted field"
          + " (its name has 40000 characters). You sent: 1.</field>");
    }
  }

  @Test
  void anUnknownPromptAndPromptArgumentAreCut() {
    try (FusionTester tester = billing(Exposition.FLAT)) {
      McpResponse prompt = tester.request(JsonRpc.PROMPTS_GET, Map.of("name", HUGE));
      shortRaw(prompt.raw());
      assertThat(prompt.errorMessage()).startsWith("The prompt " + HUGE_QUOTED + " does not exist.");

      McpResponse argument = tester.request(JsonRpc.PROMPTS_GET, Map.of("name", "overdue_invoices",
          "arguments", Map.of("audience", "finance", HUGE_KEY, "x")));
      shortRaw(argument.raw());
      assertThat(argument.errorMessage()).contains("\"" + KEY_CUT + "\" is not an accepted field"
          + " (its name has 40000 characters)");
    }
  }

  @Test
  void anUnknownResourceUriIsCutInTheMessageAndTheData() {
    try (FusionTester tester = billing(Exposition.FLAT)) {
      McpResponse r = tester.request(JsonRpc.RESOURCES_READ, Map.of("uri", HUGE));
      shortRaw(r.raw());
      assertThat(r.errorMessage()).startsWith("The resource " + HUGE_QUOTED + " does not exist.");
      assertThat(((Map<?, ?>) r.errorData()).get("uri")).isEqualTo(Echo.cut(HUGE));
    }
  }

  @Test
  void aFailingResourceWhoseUriIsHugeNamesItCut() {
    String log = HiddenSentinelPropertyTest.captureLog(() -> {
      try (FusionTester tester = billing(Exposition.FLAT)) {
        McpResponse r = tester.request(JsonRpc.RESOURCES_READ,
            Map.of("uri", "docs://pages/broken/sections/" + HUGE));
        shortRaw(r.raw());
        assertThat(r.errorCode()).isEqualTo(JsonRpc.INTERNAL_ERROR);
        assertThat(r.errorMessage()).contains("[docs/" + Echo.cut("docs://pages/broken/sections/" + HUGE)
            + "] the resource failed unexpectedly");
      }
    });
    assertThat(log).contains("the resource failed unexpectedly").doesNotContain("x".repeat(Echo.MAX_CHARS + 1));
  }

  @Test
  void completionNamesAreCut() {
    try (FusionTester tester = billing(Exposition.FLAT)) {
      McpResponse template = tester.request(JsonRpc.COMPLETE, Map.of(
          "ref", Map.of("type", "ref/resource", "uri", HUGE),
          "argument", Map.of("name", "id", "value", "")));
      shortRaw(template.raw());
      assertThat(template.errorMessage()).startsWith("The resource template " + HUGE_QUOTED
          + " does not exist.");

      McpResponse argument = tester.request(JsonRpc.COMPLETE, Map.of(
          "ref", Map.of("type", "ref/prompt", "name", "overdue_invoices"),
          "argument", Map.of("name", HUGE, "value", "")));
      shortRaw(argument.raw());
      assertThat(argument.errorMessage()).startsWith("The prompt \"overdue_invoices\" has no argument "
          + HUGE_QUOTED + ".");

      Map<String, Object> params = new LinkedHashMap<>();
      params.put("ref", Map.of("type", "ref/resource", "uri", "docs://pages/{page}/sections/{section}"));
      params.put("argument", Map.of("name", "section", "value", ""));
      params.put("context", Map.of("arguments", Map.of(HUGE_KEY, 1)));
      McpResponse context = tester.request(JsonRpc.COMPLETE, params);
      shortRaw(context.raw());
      assertThat(context.errorMessage()).isEqualTo("Invalid params: context.arguments "
          + Echo.quoted(HUGE_KEY) + " must be a string, got number.");
    }
  }
}
