package dev.mcpfusion.benchmarks.coldstart;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The baseline of benchmark 5: a hello-world MCP server on the plain SDK and its own
 * {@link StdioServerTransportProvider}, one tool, no framework.
 *
 * <pre>java -cp benchmarks.jar dev.mcpfusion.benchmarks.coldstart.PlainSdkHelloServer</pre>
 */
public final class PlainSdkHelloServer {
  private PlainSdkHelloServer() {}

  public static void main(String[] args) throws InterruptedException {
    McpSchema.Tool hello = McpSchema.Tool.builder()
        .name("hello")
        .description("Says hello")
        .inputSchema(Map.of("type", "object",
            "properties", Map.of("name", Map.of("type", "string", "description", "Who to greet")),
            "additionalProperties", false))
        .build();
    McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
        .serverInfo("hello", "1.0.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(McpServerFeatures.SyncToolSpecification.builder()
            .tool(hello)
            .callHandler((exchange, request) -> new McpSchema.CallToolResult(
                List.of(new McpSchema.TextContent("Hello, " + request.arguments().getOrDefault("name", "world") + "!")),
                false, null, null))
            .build())
        .build();
    // The SDK's provider reads stdin on its own threads; stay alive until the JVM is stopped.
    Runtime.getRuntime().addShutdownHook(new Thread(server::closeGracefully));
    new CountDownLatch(1).await();
  }
}
