package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An HTTP upstream that answers the handshake and the tool list, then fails every call with an
 * HTTP error: the agent reads an envelope naming the upstream and the status, never the body.
 */
class HttpErrorTest {
  @Test
  void anHttpErrorIsAnEnvelopeNamingTheUpstreamAndTheStatus() throws IOException {
    HttpServer upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    upstream.createContext("/mcp", exchange -> {
      Map<?, ?> request = (Map<?, ?>) Json.parse(new String(exchange.getRequestBody().readAllBytes(),
          StandardCharsets.UTF_8));
      Object method = request.get("method");
      String result;
      if ("initialize".equals(method)) {
        result = "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
            + "\"serverInfo\":{\"name\":\"flaky\",\"version\":\"1\"}}";
      } else if ("tools/list".equals(method)) {
        result = "{\"tools\":[{\"name\":\"boom\",\"description\":\"Fails\","
            + "\"inputSchema\":{\"type\":\"object\"}}]}";
      } else if (request.get("id") == null) {
        exchange.sendResponseHeaders(202, -1);
        exchange.close();
        return;
      } else {
        byte[] body = "java.lang.IllegalStateException: secret internals".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(500, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
        return;
      }
      byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":" + result + "}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    upstream.start();
    try (Gateway gateway = Gateway.builder()
        .http("flaky", "http://127.0.0.1:" + upstream.getAddress().getPort() + "/mcp").build();
        FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("g", "1")))) {
      ToolResult failed = tester.callTool("flaky_boom", Map.of());

      assertThat(failed.errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
      assertThat(failed.errorText())
          .contains("<message>The upstream flaky answered HTTP 500.</message>")
          .contains("<detail key=\"upstream\">flaky</detail>")
          .doesNotContain("secret internals").doesNotContain("IllegalStateException");
    } finally {
      upstream.stop(0);
    }
  }
}
