package dev.mcpfusion.core.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineTest {
  private static final String BILLING_ACTIONS = """
      <available_actions>
        <action>billing (action: list_invoices)</action>
        <action>billing (action: get_invoice)</action>
        <action>billing (action: void_invoice)</action>
      </available_actions>
      </tool_error>""";

  private final FusionServer flat = Servers.full(Exposition.FLAT);
  private final FusionServer grouped = Servers.full(Exposition.GROUPED);

  @Test
  void unknownActionListsTheValidActions() {
    McpSchema.CallToolResult result = Servers.call(grouped, "billing", Map.of("action", "refund_all"));
    assertThat(result.isError()).isTrue();
    assertThat(result.structuredContent()).isNull();
    assertThat(Servers.texts(result)).containsExactly("""
        <tool_error code="UNKNOWN_ACTION" severity="error">
        <message>The action "refund_all" does not exist in billing.</message>
        <recovery>Choose one of the available actions and call the tool again.</recovery>
        """ + BILLING_ACTIONS);
  }

  @Test
  void missingDiscriminatorIsAnsweredWithTheValidActions() {
    McpSchema.CallToolResult result = Servers.call(grouped, "billing", Map.of("id", "INV-0001"));
    assertThat(Servers.texts(result)).containsExactly("""
        <tool_error code="MISSING_DISCRIMINATOR" severity="error">
        <message>The required field "action" is missing.</message>
        <recovery>Choose one of the available actions and call the tool again.</recovery>
        """ + BILLING_ACTIONS);
    Map<String, Object> nullAction = new LinkedHashMap<>();
    nullAction.put("action", null);
    assertThat(Servers.text(Servers.call(grouped, "billing", nullAction)))
        .contains("code=\"MISSING_DISCRIMINATOR\"");
  }

  @Test
  void nonStringDiscriminatorNamesItsJsonType() {
    McpSchema.CallToolResult result = Servers.call(grouped, "billing", Map.of("action", 42));
    assertThat(Servers.texts(result)).containsExactly("""
        <tool_error code="INVALID_DISCRIMINATOR" severity="error">
        <message>Field "action" must be a string, got number.</message>
        <recovery>Choose one of the available actions and call the tool again.</recovery>
        """ + BILLING_ACTIONS);
    assertThat(Servers.text(Servers.call(grouped, "billing", Map.of("action", List.of("x")))))
        .contains("got array.");
  }

  @Test
  void discriminatorIsRemovedBeforeDecoding() {
    McpSchema.CallToolResult result = Servers.call(grouped, "billing",
        Map.of("action", "get_invoice", "id", "INV-0002"));
    assertThat(result.isError()).isFalse();
    assertThat(result.structuredContent()).isEqualTo(
        Map.of("id", "INV-0002", "totalCents", 2000L, "status", "PAID"));
  }

  @Test
  void everyBadFieldIsInOneValidationError() {
    McpSchema.CallToolResult result = Servers.call(grouped, "billing",
        Map.of("action", "get_invoice", "id", "abc", "extra", true));
    assertThat(Servers.texts(result)).containsExactly("""
        <validation_error action="billing/get_invoice">
        <field name="extra">is not an accepted field. You sent: true.</field>
        <field name="id">must match "INV-\\d+" You sent: 'abc'. Expected format: INV-\\d+.</field>
        <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
        </validation_error>""");
    assertThat(result.isError()).isTrue();
  }

  @Test
  void middlewareRunsServerWideThenRouterThenMethod() {
    McpSchema.CallToolResult result = Servers.call(flat, "probe_trail", Map.of());
    assertThat(Servers.texts(result)).containsExactly("server>router>method>handler");
    assertThat(result.structuredContent()).isEqualTo(Map.of("result", "server>router>method>handler"));
  }

  @Test
  void middlewareDerivesATypedContextValueTheHandlerReceives() {
    McpSchema.CallToolResult result = Servers.call(flat, "probe_whoami", Map.of(),
        RequestContext.of(Map.of("X-Tenant", "t_42"), null, null, null));
    assertThat(Servers.texts(result)).containsExactly("agent@t_42");
  }

  @Test
  void fusionErrorThrownInMiddlewareKeepsEverything() {
    McpSchema.CallToolResult flatResult = Servers.call(flat, "probe_denied", Map.of());
    assertThat(Servers.texts(flatResult)).containsExactly("""
        <tool_error code="FORBIDDEN" severity="error">
        <message>Probes are switched off.</message>
        <recovery>Call probe_whoami instead.</recovery>
        <available_actions>
          <action>probe_whoami</action>
        </available_actions>
        <details>
          <detail key="switch">off</detail>
        </details>
        <retry_after>5 seconds</retry_after>
        </tool_error>""");
    McpSchema.CallToolResult groupedResult = Servers.call(grouped, "probe", Map.of("action", "denied"));
    assertThat(Servers.text(groupedResult)).contains("<recovery>Call probe (action: whoami) instead.</recovery>")
        .contains("<action>probe (action: whoami)</action>")
        .contains("code=\"FORBIDDEN\"");
    @SuppressWarnings("unchecked")
    Map<String, Object> error = (Map<String, Object>) flatResult.meta().get("mcpfusion/error");
    assertThat(error).containsEntry("code", "FORBIDDEN").containsEntry("retryAfterSeconds", 5L);
  }

  @Test
  void unexpectedExceptionIsAnInternalErrorWithoutItsText() {
    McpSchema.CallToolResult result = Servers.call(flat, "probe_boom", Map.of());
    String text = Servers.text(result);
    assertThat(result.isError()).isTrue();
    assertThat(text).doesNotContain("hunter2").doesNotContain("SECRET")
        .doesNotContain("IllegalStateException").doesNotContain("password");
    assertThat(text).matches("(?s)<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n"
        + "<message>\\[probe/boom\\] The tool failed unexpectedly \\(incident [0-9a-f]{12}\\)\\.</message>\n"
        + "<recovery>Do not retry with the same arguments; tell the user the tool failed\\.</recovery>\n"
        + "</tool_error>");
    assertThat(String.valueOf(result.meta())).doesNotContain("hunter2");
  }

  @Test
  void theServerLogCarriesTheIncidentIdAndTheFullException() {
    java.io.PrintStream original = System.err;
    java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
    McpSchema.CallToolResult result;
    try {
      System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
      result = Servers.call(grouped, "probe", Map.of("action", "boom"));
    } finally {
      System.setErr(original);
    }
    java.util.regex.Matcher incident = java.util.regex.Pattern.compile("incident ([0-9a-f]{12})")
        .matcher(Servers.text(result));
    assertThat(incident.find()).isTrue();
    assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("ERROR")
        .contains("[probe/boom]")
        .contains("incident " + incident.group(1))
        .contains("java.lang.IllegalStateException: db password=hunter2-SECRET")
        .contains("at dev.mcpfusion.core.server.fixture.ProbeTools.boom");
  }

  @Test
  void thrownNotFoundRendersItsActionsPerExpositionInTheRecoveryToo() {
    assertThat(Servers.text(Servers.call(flat, "billing_get_invoice", Map.of("id", "INV-9999"))))
        .isEqualTo("""
            <tool_error code="NOT_FOUND" severity="error">
            <message>Invoice "INV-9999" does not exist.</message>
            <recovery>Call billing_list_invoices first to find valid IDs.</recovery>
            <available_actions>
              <action>billing_list_invoices</action>
            </available_actions>
            <details>
              <detail key="invoice_id">INV-9999</detail>
            </details>
            </tool_error>""");
    assertThat(Servers.text(Servers.call(grouped, "billing",
        Map.of("action", "get_invoice", "id", "INV-9999"))))
        .contains("<recovery>Call billing (action: list_invoices) first to find valid IDs.</recovery>")
        .contains("  <action>billing (action: list_invoices)</action>");
  }

  @Test
  void successfulMutationStartsWithTheCacheMarkInFlat() {
    McpSchema.CallToolResult result = Servers.call(flat, "billing_void_invoice", Map.of("id", "INV-0001"));
    assertThat(result.isError()).isFalse();
    assertThat(Servers.texts(result).get(0))
        .isEqualTo("<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
    assertThat(result.meta()).containsEntry("mcpfusion/invalidation",
        Map.of("cause", "billing.void_invoice", "domains", List.of("billing.*")));
  }

  @Test
  void successfulMutationStartsWithTheCacheMarkInGrouped() {
    McpSchema.CallToolResult result = Servers.call(grouped, "billing",
        Map.of("action", "void_invoice", "id", "INV-0005"));
    assertThat(result.isError()).isFalse();
    assertThat(Servers.texts(result).get(0))
        .isEqualTo("<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
  }

  @Test
  void failedMutationsAndQueriesCarryNoCacheMark() {
    McpSchema.CallToolResult paid = Servers.call(flat, "billing_void_invoice", Map.of("id", "INV-0002"));
    assertThat(paid.isError()).isTrue();
    assertThat(Servers.text(paid)).contains("code=\"CONFLICT\"").doesNotContain("cache_invalidation");
    assertThat(paid.meta()).doesNotContainKey("mcpfusion/invalidation");
    McpSchema.CallToolResult invalid = Servers.call(grouped, "billing", Map.of("action", "void_invoice"));
    assertThat(Servers.text(invalid)).contains("<validation_error").doesNotContain("cache_invalidation");
    for (String query : List.of("billing_list_invoices", "billing_get_invoice")) {
      McpSchema.CallToolResult result = Servers.call(flat, query, Map.of("id", "INV-0001"));
      assertThat(Servers.text(result)).doesNotContain("cache_invalidation");
    }
    McpSchema.CallToolResult list = Servers.call(flat, "billing_list_invoices", Map.of());
    assertThat(Servers.text(list)).doesNotContain("cache_invalidation");
    assertThat(list.meta()).doesNotContainKey("mcpfusion/invalidation");
  }

  @Test
  void actionVerbWithInvalidatesIsMarkedToo() {
    McpSchema.CallToolResult result = Servers.call(flat, "projects_archive_project",
        Map.of("workspaceId", "w1", "projectId", "p1"));
    assertThat(Servers.texts(result)).containsExactly(
        "<cache_invalidation cause=\"projects.archive_project\" domains=\"projects.*\" />",
        "archived p1 in w1");
  }

  @Test
  void contentIsNeverEmptyAndMetaSurvives() {
    McpSchema.CallToolResult result = Servers.call(flat, "billing_list_invoices", Map.of("status", "OPEN"));
    assertThat(result.content()).isNotEmpty();
    assertThat(result.meta()).containsKeys("mcpfusion/rules", "mcpfusion/suggestions");
    assertThat(Servers.texts(result)).anySatisfy(block -> assertThat(block)
        .startsWith("<action_suggestions>\n- billing_void_invoice {\"id\":\"INV-"));
  }

  @Test
  void handlerDoesNotRunWhenValidationFails() {
    McpSchema.CallToolResult result = Servers.call(flat, "projects_archive_project",
        Map.of("workspaceId", 7));
    assertThat(Servers.texts(result)).containsExactly("""
        <validation_error action="projects/archive_project">
        <field name="workspaceId">expected string but was number. You sent: 7.</field>
        <field name="projectId">is required. You sent: nothing.</field>
        <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
        </validation_error>""");
  }

  @Test
  void aMutationAMiddlewareAnswersWithoutTheHandlerSendsNoInvalidationMark() {
    FusionServer server = Servers.billing(Exposition.FLAT)
        .middleware((call, next) -> "INV-0404".equals(call.arguments().get("id"))
            ? new dev.mcpfusion.core.server.fixture.Invoice("INV-0404", 100,
                dev.mcpfusion.core.server.fixture.InvoiceStatus.VOID, "whsec_x")
            : next.proceed(call))
        .build();
    McpSchema.CallToolResult shortCircuited = Servers.call(server, "billing_void_invoice", Map.of("id", "INV-0404"));
    assertThat(shortCircuited.isError()).isFalse();
    assertThat(Servers.text(shortCircuited)).contains("INV-0404").doesNotContain("cache_invalidation");
    assertThat(shortCircuited.meta()).doesNotContainKey("mcpfusion/invalidation");

    McpSchema.CallToolResult handled = Servers.call(server, "billing_void_invoice", Map.of("id", "INV-0001"));
    assertThat(Servers.text(handled)).contains("cache_invalidation");
    assertThat(handled.meta()).containsKey("mcpfusion/invalidation");
  }
}
