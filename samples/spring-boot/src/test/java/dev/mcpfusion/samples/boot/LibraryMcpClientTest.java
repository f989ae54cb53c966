package dev.mcpfusion.samples.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Boot sample as an agent meets it: the MCP Java SDK's own clients over HTTP against the
 * application on a random port — Streamable HTTP with a session (2025-11-25) and the stateless
 * 2026-07-28 protocol, on the one endpoint — and a browser page from a foreign origin refused.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibraryMcpClientTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @LocalServerPort
  int port;

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeClients() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private String base() {
    return "http://127.0.0.1:" + port;
  }

  private McpSyncClient client(HttpRequest.Builder requests) {
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(base())
            .endpoint("/mcp").requestBuilder(requests).build())
        .requestTimeout(Duration.ofSeconds(20))
        .build();
    open.add(0, client::close);
    return client;
  }

  private static String text(McpSchema.CallToolResult result, int index) {
    return ((McpSchema.TextContent) result.content().get(index)).text();
  }

  @Test
  void theSdkClientListsTheRouterBeansToolsAndCallsOne() {
    McpSyncClient client = client(HttpRequest.newBuilder());
    McpSchema.InitializeResult init = client.initialize();
    assertThat(init.serverInfo().name()).isEqualTo("library");
    assertThat(init.protocolVersion()).isEqualTo("2025-11-25");

    List<McpSchema.Tool> tools = client.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name)
        .containsExactly("library_list_books", "library_get_book", "library_check_out");
    McpSchema.Tool checkOut = tools.get(2);
    assertThat(checkOut.annotations().destructiveHint()).isTrue();
    assertThat(checkOut.inputSchema().get("required")).isEqualTo(List.of("id"));

    McpSchema.CallToolResult book = client.callTool(new McpSchema.CallToolRequest("library_get_book", Map.of("id", "BK-2")));
    assertThat(book.isError()).isNotEqualTo(Boolean.TRUE);
    assertThat(text(book, 0)).isEqualTo("{\"id\":\"BK-2\",\"title\":\"A Wizard of Earthsea\","
        + "\"author\":\"Ursula K. Le Guin\",\"status\":\"ON_LOAN\"}");
    assertThat(JSON.writeValueAsString(book)).doesNotContain("m-7").doesNotContain("borrower");
    assertThat(text(book, 1)).contains("- A book ON_LOAN cannot be checked out until it is returned.");

    McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("library_get_book", Map.of("id", "nope")));
    assertThat(bad.isError()).isTrue();
    assertThat(text(bad, 0)).startsWith("<validation_error action=\"library/get_book\">\n<field name=\"id\">");
  }

  @Test
  void theMemberComesFromAHeaderThroughAContextProviderBeanAndTheMiddlewareBeanGuardsTheMutation() {
    McpSyncClient anonymous = client(HttpRequest.newBuilder());
    anonymous.initialize();
    McpSchema.CallToolResult refused = anonymous.callTool(new McpSchema.CallToolRequest("library_check_out", Map.of("id", "BK-3")));
    assertThat(refused.isError()).isTrue();
    assertThat(text(refused, 0)).startsWith("<tool_error code=\"UNAUTHORIZED\" severity=\"error\">\n"
        + "<message>Only library members can borrow books.</message>");

    McpSyncClient member = client(HttpRequest.newBuilder().header("x-library-member", "m-42"));
    member.initialize();
    McpSchema.CallToolResult lent = member.callTool(new McpSchema.CallToolRequest("library_check_out", Map.of("id", "BK-3")));
    assertThat(lent.isError()).isNotEqualTo(Boolean.TRUE);
    assertThat(text(lent, 0)).isEqualTo("<cache_invalidation cause=\"library.check_out\" domains=\"library.*\" />");
    assertThat(text(lent, 1)).contains("\"status\":\"ON_LOAN\"").doesNotContain("m-42");
  }

  @Test
  void aStatelessClientOfTheNextProtocolIsServedOnTheSameEndpoint() {
    io.modelcontextprotocol.modern.client.McpSyncClient modern = io.modelcontextprotocol.modern.client.McpClient
        .sync(HttpClientMcpTransport.builder(base() + "/mcp").build())
        .callTimeout(Duration.ofSeconds(20))
        .build();
    assertThat(modern.tools().list().tools()).extracting(t -> t.name())
        .containsExactly("library_list_books", "library_get_book", "library_check_out");
    io.modelcontextprotocol.modern.McpSchema.CallToolResult books =
        modern.tool("library_list_books").arguments(Map.of("author", "Octavia E. Butler")).call();
    assertThat(JSON.writeValueAsString(books.content())).contains("Kindred").doesNotContain("Earthsea");
  }

  @Test
  void aForeignOriginIsRefusedWithACleanBody() throws Exception {
    String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"probe\",\"version\":\"1\"}}}";
    HttpResponse<String> refused = post(initialize, "https://evil.example");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    assertThat(refused.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
        + "\"message\":\"Forbidden: this Origin is not allowed.\"}}");

    // The real client, sent from that origin, cannot even start a session.
    McpSyncClient fromEvil = client(HttpRequest.newBuilder().header("Origin", "https://evil.example"));
    assertThat(catchThrowable(fromEvil::initialize)).isNotNull();

    // The origin listed in mcpfusion.http.allowed-origins is served, and told so.
    HttpResponse<String> allowed = post(initialize, "https://library.example");
    assertThat(allowed.statusCode()).isEqualTo(200);
    assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://library.example");
    assertThat(allowed.headers().firstValue("Mcp-Session-Id")).isPresent();
  }

  private HttpResponse<String> post(String body, String origin) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base() + "/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Origin", origin)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }
}
