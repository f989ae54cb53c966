package dev.mcpfusion.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.gateway.lab.LabMain;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.resilience.Upstream;
import dev.mcpfusion.resilience.UpstreamPolicy;
import dev.mcpfusion.testing.FusionTester;
import dev.mcpfusion.testing.ToolResult;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An HTTP upstream whose server answers HTTP 500 (a real HTTP front on loopback that forwards to
 * the lab connector until told to fail): the agent reads an envelope naming the upstream, never the
 * upstream's error body, and the breaker counts each 500 until it opens.
 */
class UpstreamHttp500Test {
  private static final List<String> FORWARDED = List.of("Content-Type", "Accept", "Mcp-Session-Id", "MCP-Protocol-Version");

  /** Forwards to {@code target} until {@code failing}; then answers 500 with an internal error body. */
  private static final class Front implements AutoCloseable {
    final AtomicBoolean failing = new AtomicBoolean();
    final AtomicInteger failed = new AtomicInteger();
    private final HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();

    Front(URI target) throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      server.createContext("/", exchange -> {
        try {
          if (failing.get()) {
            // Read as a server does: an unread request body would break the kept-alive connection.
            exchange.getRequestBody().readAllBytes();
            failed.incrementAndGet();
            send(exchange, 500, "text/plain", "java.lang.IllegalStateException: pool exhausted at db-7.internal"
                .getBytes(StandardCharsets.UTF_8));
          } else {
            forward(exchange, target);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          send(exchange, 503, "text/plain", new byte[0]);
        } finally {
          exchange.close();
        }
      });
      server.start();
    }

    String endpoint() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
    }

    private void forward(HttpExchange exchange, URI target) throws IOException, InterruptedException {
      byte[] body = exchange.getRequestBody().readAllBytes();
      HttpRequest.Builder request = HttpRequest.newBuilder(target)
          .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
      for (String name : FORWARDED) {
        String value = exchange.getRequestHeaders().getFirst(name);
        if (value != null) {
          request.header(name, value);
        }
      }
      HttpResponse<byte[]> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      answer.headers().firstValue("Mcp-Session-Id").ifPresent(v -> exchange.getResponseHeaders().add("Mcp-Session-Id", v));
      send(exchange, answer.statusCode(), answer.headers().firstValue("Content-Type").orElse(null), answer.body());
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
      if (type != null) {
        exchange.getResponseHeaders().add("Content-Type", type);
      }
      exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  @Test
  void anHttp500IsAnEnvelopeNamingTheUpstreamAndTheBreakerCountsIt() throws Exception {
    FusionHttpServer lab = FusionHttp.serve(LabMain.server(), HttpOptions.port(0));
    try (Front front = new Front(lab.endpoint());
        Gateway gateway = Gateway.builder().http("lab", front.endpoint())
            .breaker(UpstreamPolicy.defaults().failureRatePercent(100).window(2, 2).openFor(Duration.ofMinutes(1)))
            .build();
        FusionTester tester = FusionTester.of(gateway.register(FusionServer.builder("gateway", "1.0.0")))) {
      assertThat(tester.callTool("lab_lab_echo", Map.of("text", "up")).dataText()).isEqualTo("echo: up");
      front.failing.set(true);

      ToolResult first = tester.callTool("lab_lab_echo", Map.of("text", "one"));
      ToolResult second = tester.callTool("lab_lab_echo", Map.of("text", "two"));

      assertThat(first.errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
      assertThat(first.errorText()).contains("The upstream lab answered HTTP 500.")
          .contains("<detail key=\"upstream\">lab</detail>");
      assertThat(first.raw() + second.raw()).doesNotContain("pool exhausted", "db-7.internal");
      assertThat(second.errorCode()).isEqualTo("UPSTREAM_UNAVAILABLE");
      assertThat(second.errorText()).contains("The upstream lab answered HTTP 500.");
      // Both 500s counted: the last two calls all failed, so the circuit opened.
      Upstream breaker = gateway.router("lab").breaker();
      assertThat(breaker.state()).isEqualTo(Upstream.State.OPEN);

      ToolResult paused = tester.callTool("lab_lab_echo", Map.of("text", "three"));
      assertThat(paused.errorText()).contains("<detail key=\"circuit\">open</detail>");
      assertThat(front.failed.get()).as("the open circuit sent nothing more").isEqualTo(2);
    } finally {
      lab.close();
    }
  }
}
