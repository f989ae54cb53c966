package dev.mcpfusion.core.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.core.server.McpJson;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.InvoiceView_Presenter;
import dev.mcpfusion.core.server.fixture.ProbeTools;
import dev.mcpfusion.core.server.fixture.Recorder;
import dev.mcpfusion.core.server.fixture.Tenant;
import dev.mcpfusion.core.server.fixture.Trail;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real SDK server and client, in process, with the framework's edge in front of the session. */
class SdkRoundTripTest {
  private final List<AutoCloseable> open = new ArrayList<>();
  private final AtomicReference<RequestContext> seen = new AtomicReference<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private FusionServer fusion(Exposition exposition) {
    return FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .register(new ProbeTools())
        .exposition(exposition)
        .context(Tenant.class, request -> new Tenant(request.header("x-tenant").orElse("none")))
        .context(Recorder.class, request -> new Recorder())
        .middleware((call, next) -> {
          seen.set(call.request());
          if ("INV-0404".equals(call.arguments().get("id"))) {
            throw FusionError.of("ALREADY_VOID", "Invoice \"INV-0404\" is already void.")
                .recovery("Nothing to do.").warning();
          }
          return next.proceed(call);
        })
        .provide(new Trail.RouterTrail("router"), new Trail.MethodTrail("method"))
        .build();
  }

  private McpSyncClient connect(InProcessTransport pair,
      Function<io.modelcontextprotocol.spec.McpServerTransportProvider, McpSyncServer> server) {
    McpSyncServer sdkServer = server.apply(pair.serverProvider());
    open.add(sdkServer::close);
    McpSyncClient client = McpClient.sync(pair.clientTransport())
        .requestTimeout(Duration.ofSeconds(20))
        .build();
    open.add(0, client::close);
    client.initialize();
    return client;
  }

  private McpSyncClient connect(FusionServer fusion, InProcessTransport pair) {
    McpSyncClient client = McpClient.sync(pair.clientTransport())
        .requestTimeout(Duration.ofSeconds(20))
        .build();
    open.add(0, client::close);
    client.initialize();
    return client;
  }

  private static Map<String, Object> transportContext() {
    return Map.of("X-Tenant", List.of("t_9"));
  }

  private static McpSchema.CallToolRequest call(String name, Map<String, Object> args) {
    return new McpSchema.CallToolRequest(name, args);
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void structuredContentPassesTheSdkOutputSchemaValidation(Exposition exposition) {
    FusionServer fusion = fusion(exposition);
    InProcessTransport pair = new InProcessTransport(fusion, transportContext());
    McpSyncClient client = connect(fusion, pair);

    List<McpSchema.Tool> listed = client.listTools().tools();
    assertThat(listed).extracting(McpSchema.Tool::name)
        .containsExactlyElementsOf(fusion.edge().tools().stream().map(McpSchema.Tool::name).toList());
    McpSchema.Tool billing = listed.stream()
        .filter(t -> t.name().startsWith("billing")).findFirst().orElseThrow();
    assertThat(billing.outputSchema()).containsEntry("type", "object");

    boolean grouped = exposition == Exposition.GROUPED;
    Map<String, Object> single = new LinkedHashMap<>();
    if (grouped) {
      single.put("action", "get_invoice");
    }
    single.put("id", "INV-0003");
    McpSchema.CallToolResult one = client.callTool(call(grouped ? "billing" : "billing_get_invoice", single));
    assertThat(one.isError()).isFalse();
    assertThat(one.structuredContent()).isEqualTo(
        Map.of("id", "INV-0003", "totalCents", 3000, "status", "VOID"));

    Map<String, Object> list = new LinkedHashMap<>();
    if (grouped) {
      list.put("action", "list_invoices");
    }
    McpSchema.CallToolResult many = client.callTool(call(grouped ? "billing" : "billing_list_invoices", list));
    assertThat(many.isError()).isFalse();
    @SuppressWarnings("unchecked")
    Map<String, Object> structured = (Map<String, Object>) many.structuredContent();
    assertThat((List<?>) structured.get("items")).hasSize(50);
    assertThat(structured.get("truncated")).isEqualTo(Map.of("shown", 50, "hidden", 70));
    assertThat(pair.serverWire).noneMatch(json -> json.contains("whsec-SENTINEL"));
  }

  @Test
  void nonConformingStructuredContentIsRejectedByTheSdk() {
    McpSchema.Tool tool = McpSchema.Tool.builder()
        .name("raw_get_invoice")
        .description("A raw SDK tool whose result does not match its output schema")
        .inputSchema(Map.of("type", "object"))
        .outputSchema(new LinkedHashMap<>(asMap(Json.parse(InvoiceView_Presenter.SCHEMA))))
        .build();
    McpServerFeatures.SyncToolSpecification spec = new McpServerFeatures.SyncToolSpecification(tool,
        (exchange, request) -> new McpSchema.CallToolResult(
            List.of(new McpSchema.TextContent("{}")), false,
            Map.of("id", "INV-1", "totalCents", "lots", "status", "OPEN"), null));
    InProcessTransport pair = new InProcessTransport(McpJson.newMapper());
    McpSyncClient client = connect(pair, provider -> McpServer.sync(provider)
        .serverInfo("raw", "1")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .jsonMapper(McpJson.newMapper())
        .tools(spec)
        .build());
    McpSchema.CallToolResult result = client.callTool(call("raw_get_invoice", Map.of()));
    assertThat(result.isError()).isTrue();
    assertThat(result.structuredContent()).isNull();
    assertThat(((McpSchema.TextContent) result.content().get(0)).text())
        .contains("output validation failed");
  }

  @Test
  void unknownToolIsAnsweredByTheEdgeNotTheSdk() {
    FusionServer fusion = fusion(Exposition.FLAT);
    McpSyncClient client = connect(fusion, new InProcessTransport(fusion, Map.of()));
    assertThatThrownBy(() -> client.callTool(call("billing_refund", Map.of())))
        .isInstanceOfSatisfying(McpError.class, e -> {
          McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
          assertThat(error.code()).isEqualTo(-32602);
          assertThat(error.message())
              .startsWith("<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n"
                  + "<message>The tool \"billing_refund\" does not exist.</message>")
              .contains("  <tool>billing_void_invoice</tool>");
          assertThat(asMap(error.data())).containsEntry("code", "UNKNOWN_TOOL");
        });
  }

  @ParameterizedTest
  @EnumSource(Exposition.class)
  void warningOnAPresenterBackedToolReachesTheClientAsAnError(Exposition exposition) {
    FusionServer fusion = fusion(exposition);
    McpSyncClient client = connect(fusion, new InProcessTransport(fusion, Map.of()));
    Map<String, Object> args = new LinkedHashMap<>();
    if (exposition == Exposition.GROUPED) {
      args.put("action", "void_invoice");
    }
    args.put("id", "INV-0404");
    McpSchema.CallToolResult result = client.callTool(
        call(exposition == Exposition.GROUPED ? "billing" : "billing_void_invoice", args));
    assertThat(result.isError()).isTrue();
    assertThat(result.structuredContent()).isNull();
    assertThat(result.content()).hasSize(1);
    assertThat(((McpSchema.TextContent) result.content().get(0)).text())
        .startsWith("<tool_error code=\"ALREADY_VOID\" severity=\"warning\">")
        .doesNotContain("cache_invalidation");
    assertThat(asMap(result.meta().get("mcpfusion/error"))).containsEntry("severity", "warning");
  }

  @Test
  void headersMetaSessionAndProtocolVersionReachTheRequestContext() {
    FusionServer fusion = fusion(Exposition.FLAT);
    McpSyncClient client = connect(fusion, new InProcessTransport(fusion, transportContext()));
    McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(
        "probe_whoami", Map.of(), Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")));
    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).isEqualTo("agent@t_9");
    RequestContext request = seen.get();
    assertThat(request.header("x-tenant")).contains("t_9");
    assertThat(request.meta()).containsKey("traceparent");
    assertThat(request.protocolVersion()).contains("2025-11-25");
    assertThat(request.sessionId()).isPresent();
  }

  @Test
  void decimalsArriveAsBigDecimalAndTheServerAdvertisesToolsOnly() {
    FusionServer fusion = fusion(Exposition.FLAT);
    McpSyncClient client = connect(fusion, new InProcessTransport(fusion, Map.of()));
    McpSchema.ServerCapabilities capabilities = client.getCurrentInitializationResult().capabilities();
    assertThat(capabilities.tools()).isNotNull();
    assertThat(capabilities.tools().listChanged()).isFalse();
    // The classic (stateful) SDK server always adds logging, and implements logging/setLevel.
    assertThat(capabilities.prompts()).isNull();
    assertThat(capabilities.resources()).isNull();
    McpSchema.CallToolResult result = client.callTool(call("billing_get_invoice", Map.of("id", 1.5)));
    assertThat(((McpSchema.TextContent) result.content().get(0)).text())
        .contains("<field name=\"id\">expected string but was number. You sent: 1.5.</field>");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object value) {
    return (Map<String, Object>) value;
  }
}
