package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.samples.conformance.ConformanceConnector;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolInfo;
import dev.mcpfusion.testing.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two real upstreams behind one gateway: the billing sample over stdio (a child JVM) and the
 * conformance sample over Streamable HTTP; the gateway's surface is driven through the edge in
 * memory ({@code FusionTester}).
 */
class GatewayTest {
  private static FusionHttpServer conformance;
  private static Gateway gateway;
  private static FusionTester tester;

  @BeforeAll
  static void start() {
    conformance = FusionHttp.serve(ConformanceConnector.builder().build(), HttpOptions.port(0));
    gateway = Gateway.builder()
        .stdio("billing", TestServers.java(TestServers.BILLING_MAIN))
        .http("conformance", conformance.endpoint().toString())
        .build();
    tester = FusionTester.of(gateway.register(FusionServer.builder("gateway", "1.0.0")));
  }

  @AfterAll
  static void stop() {
    if (tester != null) {
      tester.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    if (conformance != null) {
      conformance.close();
    }
  }

  @Test
  void theToolsAreTheUnionOfTheUpstreamsPrefixedByUpstream() {
    List<String> names = tester.listTools().stream().map(ToolInfo::name).toList();
    List<String> billing = upstreamTools(BillingConnector.builder(InvoiceStore.sample(),
        Exposition.FLAT)).keySet().stream().map(n -> "billing_" + n).toList();
    List<String> conformanceTools = upstreamTools(ConformanceConnector.builder()).keySet().stream()
        .map(n -> "conformance_" + n).toList();
    assertThat(billing).contains("billing_billing_get_invoice", "billing_billing_void_invoice");
    assertThat(names).containsAll(billing).containsAll(conformanceTools)
        .hasSize(billing.size() + conformanceTools.size());
    assertThat(gateway.toolNames()).containsExactlyElementsOf(names);
  }

  @Test
  void descriptionsAnnotationsAndInputSchemasAreTheUpstreams() {
    Map<String, ToolInfo> listed = tester.listTools().stream()
        .collect(Collectors.toMap(ToolInfo::name, Function.identity()));
    Map<String, ToolInfo> billing = upstreamTools(BillingConnector.builder(InvoiceStore.sample(),
        Exposition.FLAT));
    for (ToolInfo own : billing.values()) {
      ToolInfo through = listed.get("billing_" + own.name());
      assertThat(through.description()).as(own.name()).isEqualTo(own.description());
      assertThat(through.inputSchema()).as(own.name()).isEqualTo(own.inputSchema());
      assertThat(through.annotations()).as(own.name()).isEqualTo(own.annotations());
    }
    assertThat(listed.get("billing_billing_void_invoice").annotations().destructiveHint()).isTrue();
    assertThat(listed.get("billing_billing_get_invoice").annotations().readOnlyHint()).isTrue();
  }

  @Test
  void aCallIsForwardedAndItsTextComesBack() {
    ToolResult result = tester.callTool("billing_billing_get_invoice", Map.of("id", "INV-0042"));
    assertThat(result.isSuccess()).as(result.blocks().toString()).isTrue();
    assertThat(result.dataText()).contains("INV-0042");
  }

  @Test
  void argumentsAreCheckedAgainstTheUpstreamsSchemaBeforeForwarding() {
    ToolResult result = tester.callTool("billing_billing_get_invoice", Map.of("id", 42));
    assertThat(result.errorCode()).isEqualTo("VALIDATION_ERROR");
    assertThat(result.errorText()).startsWith("<validation_error action=\"billing/billing_get_invoice\">")
        .contains("<field name=\"id\">integer found, string expected. You sent: 42.</field>");
  }

  @Test
  void anUpstreamToolErrorKeepsItsCodeAndNamesTheUpstream() {
    ToolResult result = tester.callTool("billing_billing_get_invoice", Map.of("id", "INV-9999"));
    assertThat(result.errorCode()).isEqualTo("NOT_FOUND");
    assertThat(result.errorText())
        .contains("The upstream billing answered billing_get_invoice with an error:")
        .contains("INV-9999")
        .contains("<detail key=\"upstream\">billing</detail>");
  }

  @Test
  void imagesAndResourcesOfAnHttpUpstreamAreAttachedAsTheyCame() {
    ToolResult result = tester.callTool("conformance_test_multiple_content_types", Map.of());
    assertThat(result.isSuccess()).as(result.blocks().toString()).isTrue();
    assertThat(result.content()).extracting(block -> block.get("type"))
        .contains("text", "image", "resource");
  }

  private static Map<String, ToolInfo> upstreamTools(FusionServer.Builder server) {
    try (FusionTester own = FusionTester.of(server)) {
      return own.listTools().stream()
          .collect(Collectors.toMap(ToolInfo::name, Function.identity(), (a, b) -> a,
              java.util.LinkedHashMap::new));
    }
  }
}
