package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/** {@link FusionHttp#servlet} inside a container the user owns. */
class EmbeddedServletTest {
  @Test
  void servletServesARealClientInTheUsersContainer() throws Exception {
    FusionServer fusion = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/api");
    ServletHolder holder = new ServletHolder(FusionHttp.servlet(fusion, HttpOptions.defaults()));
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/mcp");
    jetty.setHandler(context);
    jetty.start();
    try {
      int port = connector.getLocalPort();
      HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
          .builder("http://127.0.0.1:" + port).endpoint("/api/mcp").build();
      try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build()) {
        client.initialize();
        McpSchema.CallToolResult echo = client.callTool(new McpSchema.CallToolRequest("ops_echo", Map.of("text", "embedded")));
        assertThat(((McpSchema.TextContent) echo.content().get(0)).text()).isEqualTo("embedded");
      }
      HttpResponse<String> foreign = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/api/mcp"))
          .header("Origin", "http://evil.example").header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(foreign.statusCode()).isEqualTo(403);
    } finally {
      jetty.stop();
    }
  }
}
