package dev.mcpfusion.testing;

import static dev.mcpfusion.testing.FusionAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.testing.fixtures.Billing;
import dev.mcpfusion.testing.fixtures.Billing.BillingTools;
import dev.mcpfusion.testing.fixtures.Billing.BillingTools_Fusion;
import dev.mcpfusion.testing.fixtures.Billing.Store;
import dev.mcpfusion.testing.fixtures.Billing.Tenant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** FusionTester drives the real FusionServer + SDK server + SDK client over the in-process pair. */
class FusionTesterTest {
  private final List<FusionTester> testers = new ArrayList<>();

  private FusionTester tester(Exposition exposition) {
    FusionTester tester = FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(5))))
        .exposition(exposition)
        .context(new Tenant("t_777"));
    testers.add(tester);
    return tester;
  }

  @AfterEach
  void closeTesters() {
    testers.forEach(FusionTester::close);
  }

  @Test
  void flatCallIsARealToolsCallOfRouterUnderscoreAction() {
    FusionTester tester = tester(Exposition.FLAT);

    ToolResult r = tester.call("billing", "get_invoice", Map.of("id", "INV-0001"));

    assertThat(r).isSuccess()
        .hasNoInvalidation()
        .hasRuleContaining("integer cents")
        .suggests("billing.void_invoice", Map.of("id", "INV-0001"))
        .hasNoField("webhookSecret").hasNoField("internalFlags").hasNoField("costPrice")
        .data().hasValue("id", "INV-0001").hasValue("lines[0].sku", "SKU-1").hasNoField("tenantId");
    assertThat(r.raw()).contains("\"result\"").doesNotContain(Billing.SENTINEL);
    assertThat(r.structuredContent()).containsEntry("status", "OPEN");
    assertThat(tester.sentMessages()).anySatisfy(m -> assertThat(m)
        .contains("\"name\":\"billing_get_invoice\"").contains("\"arguments\":{\"id\":\"INV-0001\"}"));
  }

  @Test
  void groupedCallSendsTheActionDiscriminatorFirst() {
    FusionTester tester = tester(Exposition.GROUPED);

    ToolResult r = tester.call("billing", "list_invoices", Map.of());

    assertThat(r).isSuccess().isTruncated(3, 2).hasUiBlockContaining("summary", "3 shown, 2 hidden")
        .data().isArray().hasSize(3);
    assertThat(r.structuredContent()).containsKey("items");
    assertThat(tester.sentMessages()).anySatisfy(m -> assertThat(m)
        .contains("\"name\":\"billing\"").contains("\"arguments\":{\"action\":\"list_invoices\"}"));
  }

  @Test
  void groupedCallRejectsAnActionKeyInTheArguments() {
    FusionTester tester = tester(Exposition.GROUPED);

    assertThatThrownBy(() -> tester.call("billing", "get_invoice", Map.of("action", "void_invoice", "id", "INV-0001")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be overridden")
        .hasMessageContaining("callTool(\"billing\"");
  }

  @Test
  void unknownToolBecomesAToolResultWithTheJsonRpcError() {
    FusionTester tester = tester(Exposition.FLAT);

    ToolResult r = tester.callTool("billing_refund_all", Map.of());

    assertThat(r).isError().hasCode("UNKNOWN_TOOL")
        .hasErrorTextContaining("<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">")
        .hasErrorTextContaining("<tool>billing_get_invoice</tool>");
    assertThat(r.jsonRpcError().code()).isEqualTo(-32602);
    assertThat(r.result()).isNull();
    assertThat(r.raw()).contains("\"error\"").contains("\"UNKNOWN_TOOL\"");
    assertThat(tester.rawMessages()).contains(r.raw());
  }

  @Test
  void groupedToolWithoutDiscriminatorIsAMissingDiscriminatorError() {
    FusionTester tester = tester(Exposition.GROUPED);

    assertThat(tester.callTool("billing", Map.of("id", "INV-0001")))
        .isError().hasCode("MISSING_DISCRIMINATOR")
        .hasErrorTextContaining("The required field \"action\" is missing.");
  }

  @Test
  void thrownNotFoundKeepsItsRecoveryAndRendersActionsPerExposition() {
    assertThat(tester(Exposition.FLAT).call("billing", "get_invoice", Map.of("id", "INV-9999")))
        .isError().hasCode("NOT_FOUND")
        .hasRecovery("Call billing_list_invoices first to find valid IDs.")
        .hasActions("billing_list_invoices")
        .hasNoInvalidation();
    assertThat(tester(Exposition.GROUPED).call("billing", "get_invoice", Map.of("id", "INV-9999")))
        .isError().hasCode("NOT_FOUND")
        .hasRecovery("Call billing (action: list_invoices) first to find valid IDs.")
        .hasActions("billing (action: list_invoices)");
  }

  @Test
  void successfulVoidStartsWithTheInvalidationMarkInBothExpositions() {
    for (Exposition exposition : Exposition.values()) {
      ToolResult r = tester(exposition).call("billing", "void_invoice", Map.of("id", "INV-0001"));

      assertThat(r).isSuccess().invalidates("billing.*").hasNoField("webhookSecret");
      assertThat(r.blocks().get(0))
          .isEqualTo("<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
      assertThat(r.invalidation().cause()).isEqualTo("billing.void_invoice");
    }
  }

  @Test
  void aWarningReachesTheClientAsAnError() {
    // INV-0002 is PAID (statuses cycle OPEN, PAID, VOID, DRAFT from 1)
    assertThat(tester(Exposition.FLAT).call("billing", "void_invoice", Map.of("id", "INV-0002")))
        .isWarning().hasCode("ALREADY_PAID").hasNoInvalidation();
  }

  @Test
  void validationErrorsListEveryBadField() {
    ToolResult r = tester(Exposition.FLAT).call("billing", "get_invoice", Map.of("id", "abc", "ide", 1));

    assertThat(r).isError().hasCode("VALIDATION_ERROR").hasErrorTextContaining("You sent: 'abc'");
    assertThat(r.fieldErrors()).extracting(ToolResult.FieldError::path).contains("id", "ide");
  }

  @Test
  void valueResultsHaveTheirJsonAsData() {
    ToolResult r = tester(Exposition.FLAT).call("billing", "count_invoices");

    assertThat(r).isSuccess().hasDataText("5");
    assertThat(r.data()).isEqualTo(5);
    assertThat(r.structuredContent()).isEqualTo(Map.of("result", 5));
  }

  @Test
  void listToolsIsExactlyWhatTheServerLists() {
    FusionTester tester = tester(Exposition.FLAT);

    List<ToolInfo> tools = tester.listTools();

    assertThat(tools).extracting(ToolInfo::name).containsExactly(
        "billing_list_invoices", "billing_get_invoice", "billing_void_invoice", "billing_count_invoices");
    // same JSON as the server's own list (numbers may come back as other Number types)
    assertThat(json(tester, tools.stream().map(ToolInfo::json).toList()))
        .isEqualTo(json(tester, tester.server().edge().tools()));
    assertThat(tester.rawMessages()).noneSatisfy(m -> assertThat(m).contains("webhookSecret"));
    FusionAssertions.assertThatTools(tools)
        .hasToolNames("billing_list_invoices", "billing_get_invoice", "billing_void_invoice", "billing_count_invoices")
        .hasNoField("webhookSecret").hasNoField("costPrice").doesNotMention("tenantId");
    assertThatThrownBy(() -> FusionAssertions.assertThatTools(tools).hasNoField("sku"))
        .hasMessageContaining("Expecting no field \"sku\" in the tool list")
        .hasMessageContaining("$[0].outputSchema.properties.items.items.properties.lines.items.properties.sku");
    assertThatThrownBy(() -> FusionAssertions.assertThatTools(tools).doesNotMention("newest first"))
        .hasMessageContaining("not to mention \"newest first\"");
  }

  private static String json(FusionTester tester, Object value) {
    return tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(value);
  }

  @Test
  void separatorAndBuilderOptionsAreShared() {
    FusionServer.Builder builder = FusionServer.builder("billing", "1.0.0")
        .register(BillingTools_Fusion.bind(new BillingTools(new Store(5))))
        .separator("-")
        .context(Tenant.class, request -> new Tenant("t_builder"));
    FusionTester tester = FusionTester.of(builder);
    testers.add(tester);

    assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-0003"))).isSuccess();
    assertThat(tester.listTools()).extracting(ToolInfo::name).contains("billing-get_invoice");
  }

  @Test
  void routerInstancesAreRegisteredThroughTheirGeneratedClass() {
    java.util.concurrent.atomic.AtomicReference<String> seenVersion = new java.util.concurrent.atomic.AtomicReference<>();
    List<String> seenCalls = java.util.Collections.synchronizedList(new ArrayList<>());
    FusionTester tester = FusionTester.of(new BillingTools(new Store(2)))
        .context(Tenant.class, request -> {
          seenVersion.set(request.protocolVersion().orElse(null));
          return new Tenant("t_1");
        })
        .middleware((call, next) -> {
          seenCalls.add(call.reference());
          return next.proceed(call);
        });
    testers.add(tester);

    assertThat(tester.call("billing", "get_invoice", Map.of("id", "INV-0002")))
        .isSuccess().data().hasValue("id", "INV-0002");
    assertThat(seenCalls).containsExactly("billing.get_invoice");
    assertThat(seenVersion.get()).isEqualTo("2025-11-25"); // the negotiated version reaches the RequestContext
  }

  @Test
  void headersAndMetaReachTheRequestContext() {
    java.util.concurrent.atomic.AtomicReference<dev.mcpfusion.core.RequestContext> seen =
        new java.util.concurrent.atomic.AtomicReference<>();
    FusionTester tester = FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(2))))
        .header("X-Tenant", "t_header")
        .context(Tenant.class, request -> {
          seen.set(request);
          return new Tenant(request.header("x-tenant").orElse("none"));
        });
    testers.add(tester);

    assertThat(tester.callTool("billing_get_invoice", Map.of("id", "INV-0001"),
        Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"))).isSuccess();
    assertThat(seen.get().header("X-TENANT")).contains("t_header");
    assertThat(seen.get().meta()).containsEntry("traceparent",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  }

  @Test
  void optionsCannotChangeAfterTheFirstCall() {
    FusionTester tester = tester(Exposition.FLAT);
    tester.call("billing", "count_invoices");

    assertThatThrownBy(() -> tester.exposition(Exposition.GROUPED))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("before the first call");
  }

  @Test
  void buildFailuresSurfaceOnFirstUse() {
    // no Tenant provider: FusionServer.build() fails naming the parameter
    FusionTester tester = FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(1))));
    testers.add(tester);

    assertThatThrownBy(() -> tester.call("billing", "count_invoices"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Tenant");
  }

  @Test
  void concurrentCallsThroughOneTesterAreAllAnsweredWithTheirOwnReplies() throws Exception {
    FusionTester tester = tester(Exposition.FLAT);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<ToolResult>> futures = new ArrayList<>();
      for (int i = 1; i <= 24; i++) {
        String id = String.format("INV-%04d", (i % 5) + 1);
        futures.add(pool.submit(() -> tester.call("billing", "get_invoice", Map.of("id", id))));
      }
      for (int i = 1; i <= 24; i++) {
        String id = String.format("INV-%04d", (i % 5) + 1);
        ToolResult r = futures.get(i - 1).get(30, TimeUnit.SECONDS);
        assertThat(r).isSuccess().data().hasValue("id", id);
        assertThat(r.raw()).contains(id); // each caller got the raw text of its own reply
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theSentinelNeverAppearsInAnyRawReply() {
    for (Exposition exposition : Exposition.values()) {
      FusionTester tester = tester(exposition);
      tester.call("billing", "list_invoices", Map.of());
      tester.call("billing", "get_invoice", Map.of("id", "INV-0004"));
      tester.call("billing", "void_invoice", Map.of("id", "INV-0001"));
      tester.call("billing", "get_invoice", Map.of("id", "INV-0404"));
      tester.listTools();

      assertThat(tester.rawMessages()).hasSizeGreaterThanOrEqualTo(6)
          .noneSatisfy(m -> assertThat(m).contains(Billing.SENTINEL));
    }
  }

  @Test
  void closeIsIdempotentAndEndsTheTester() {
    FusionTester tester = tester(Exposition.FLAT);
    tester.call("billing", "count_invoices");

    tester.close();
    tester.close();

    assertThatThrownBy(() -> tester.call("billing", "count_invoices"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void lambdaStyleTestClosesTheTester() {
    FusionTester[] seen = new FusionTester[1];
    FusionTester.test(FusionTester.of(BillingTools_Fusion.bind(new BillingTools(new Store(2))))
        .context(new Tenant("t_1")), t -> {
          seen[0] = t;
          assertThat(t.call("billing", "count_invoices")).isSuccess().hasDataText("2");
        });

    assertThatThrownBy(() -> seen[0].listTools()).isInstanceOf(IllegalStateException.class);
  }
}
