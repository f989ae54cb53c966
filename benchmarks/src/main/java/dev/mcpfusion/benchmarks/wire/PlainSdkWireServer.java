package dev.mcpfusion.benchmarks.wire;

import dev.mcpfusion.benchmarks.pipeline.PlainSdkBilling;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The baseline of benchmark 4: {@code billing_get_invoice} and {@code billing_list_invoices} on the
 * plain MCP Java SDK, answered by {@link PlainSdkBilling}'s hand-written handlers over
 * {@link InvoiceStore#sample()}, on the SDK's own transports.
 *
 * <pre>
 * java -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.PlainSdkWireServer --http 0   # both HTTP eras
 * java -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.PlainSdkWireServer --stdio    # 2025 stdio
 * </pre>
 *
 * <p>HTTP runs in a Jetty built exactly as {@code FusionHttp.serve} builds its own (same thread
 * pool, connector, {@code HttpConfiguration} and async servlet holder), so only the MCP layer
 * differs: {@code /mcp} is the SDK's {@link HttpServletStreamableServerTransportProvider} (2025
 * Streamable HTTP with sessions), {@code /modern} the SDK's {@link HttpServletMcpTransport}
 * (stateless 2026-07-28, the SDK server the framework's own stateless era runs on). Prints
 * {@code plain SDK MCP server listening on http://127.0.0.1:<port>/mcp} to stderr once listening.
 */
public final class PlainSdkWireServer {
  /** The path of the 2025 Streamable HTTP endpoint. */
  public static final String CLASSIC_PATH = "/mcp";
  /** The path of the stateless 2026-07-28 endpoint. */
  public static final String MODERN_PATH = "/modern";

  private static final Map<String, Object> GET_SCHEMA = Map.of("type", "object",
      "properties", Map.of("id", Map.of("type", "string", "description", "Invoice ID, e.g. INV-0042")),
      "required", List.of("id"));
  private static final Map<String, Object> LIST_SCHEMA = Map.of("type", "object",
      "properties", Map.of("status", Map.of("type", "string",
          "enum", List.of("DRAFT", "OPEN", "PAID", "VOID"))));

  private PlainSdkWireServer() {}

  public static void main(String[] args) throws Exception {
    McpJsonMapper json = McpJsonDefaults.getMapper();
    PlainSdkBilling billing = new PlainSdkBilling(InvoiceStore.sample(), json);
    if (args.length == 1 && args[0].equals("--stdio")) {
      McpSyncServer server = classic(McpServer.sync(new StdioServerTransportProvider(json)), billing);
      Runtime.getRuntime().addShutdownHook(new Thread(server::closeGracefully));
      new CountDownLatch(1).await();
      return;
    }
    if (args.length != 2 || !args[0].equals("--http")) {
      System.err.println("Usage: PlainSdkWireServer --http PORT | --stdio");
      System.exit(2);
    }
    HttpServletStreamableServerTransportProvider streamable =
        HttpServletStreamableServerTransportProvider.builder().jsonMapper(json).mcpEndpoint(CLASSIC_PATH).build();
    classic(McpServer.sync(streamable), billing);
    io.modelcontextprotocol.modern.server.McpServer modern = io.modelcontextprotocol.modern.server.McpServer.builder()
        .serverInfo(io.modelcontextprotocol.modern.McpSchema.Implementation.builder("billing", "1.0.0").build())
        .jsonMapper(json)
        .feature(ToolsFeature.ofSync(new ModernTools(billing)))
        .build();
    HttpServletMcpTransport stateless = HttpServletMcpTransport.builder(modern).jsonMapper(json)
        .endpoint(MODERN_PATH).build();
    Server jetty = jetty(Integer.parseInt(args[1]), streamable, stateless);
    int port = ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    System.err.println("plain SDK MCP server listening on http://127.0.0.1:" + port + CLASSIC_PATH);
    jetty.join();
  }

  /** The classic (2025) server: the two tools, the SDK's defaults otherwise. */
  private static McpSyncServer classic(McpServer.SyncSpecification<?> spec, PlainSdkBilling billing) {
    return spec.serverInfo("billing", "1.0.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(tool("billing_get_invoice", "Get one invoice", GET_SCHEMA, billing::getInvoice),
            tool("billing_list_invoices", "List invoices, newest first", LIST_SCHEMA, billing::listInvoices))
        .build();
  }

  private static McpServerFeatures.SyncToolSpecification tool(String name, String description,
      Map<String, Object> schema,
      BiFunction<io.modelcontextprotocol.server.McpSyncServerExchange, McpSchema.CallToolRequest,
          McpSchema.CallToolResult> handler) {
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build())
        .callHandler(handler)
        .build();
  }

  /** The same Jetty as {@code FusionHttp.serve}: only the servlets differ. */
  private static Server jetty(int port, HttpServletStreamableServerTransportProvider streamable,
      HttpServletMcpTransport stateless) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName("plain-http");
    Server jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    ServletHolder classic = new ServletHolder("mcp", streamable);
    classic.setAsyncSupported(true);
    context.addServlet(classic, CLASSIC_PATH);
    ServletHolder modern = new ServletHolder("modern", stateless);
    modern.setAsyncSupported(true);
    context.addServlet(modern, MODERN_PATH);
    jetty.setHandler(context);
    jetty.start();
    return jetty;
  }

  /**
   * The same two tools for the SDK's modern server: the request's name, arguments and
   * {@code _meta} handed to the classic handlers, their result copied into the modern type.
   */
  private static final class ModernTools implements McpSyncToolRepository {
    private final List<io.modelcontextprotocol.modern.McpSchema.Tool> tools = new ArrayList<>();
    private final Map<String, McpSyncTool> byName = new LinkedHashMap<>();

    ModernTools(PlainSdkBilling billing) {
      add("billing_get_invoice", "Get one invoice", GET_SCHEMA, billing::getInvoice);
      add("billing_list_invoices", "List invoices, newest first", LIST_SCHEMA, billing::listInvoices);
    }

    private void add(String name, String description, Map<String, Object> schema,
        BiFunction<io.modelcontextprotocol.server.McpSyncServerExchange, McpSchema.CallToolRequest,
            McpSchema.CallToolResult> handler) {
      io.modelcontextprotocol.modern.McpSchema.Tool tool =
          io.modelcontextprotocol.modern.McpSchema.Tool.builder(name, schema).description(description).build();
      tools.add(tool);
      byName.put(name, McpSyncTool.of(tool, (context, request) -> {
        McpSchema.CallToolResult classic = handler.apply(null,
            new McpSchema.CallToolRequest(request.name(), request.arguments(), request.meta()));
        return McpSyncResponse.result(toModern(classic));
      }));
    }

    private static io.modelcontextprotocol.modern.McpSchema.CallToolResult toModern(McpSchema.CallToolResult classic) {
      io.modelcontextprotocol.modern.McpSchema.CallToolResult.Builder result =
          io.modelcontextprotocol.modern.McpSchema.CallToolResult.builder();
      for (McpSchema.Content content : classic.content()) {
        result.addContent(io.modelcontextprotocol.modern.McpSchema.TextContent
            .builder(((McpSchema.TextContent) content).text()).build());
      }
      if (classic.structuredContent() != null) {
        result.structuredContent(classic.structuredContent());
      }
      return result.isError(Boolean.TRUE.equals(classic.isError())).build();
    }

    @Override
    public ToolsPage list(io.modelcontextprotocol.modern.server.McpRequestContext context, String cursor) {
      return ToolsPage.of(tools);
    }

    @Override
    public McpSyncTool find(io.modelcontextprotocol.modern.server.McpRequestContext context, String name) {
      return name == null ? null : byName.get(name);
    }
  }
}
