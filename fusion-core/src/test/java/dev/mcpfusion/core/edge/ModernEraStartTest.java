package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import io.modelcontextprotocol.modern.server.McpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * The start-up contract of the modern era: a stdio stream that only ever speaks the classic era
 * never builds the SDK's modern server; the first modern request builds it, once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModernEraStartTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private final FusionServer server = FusionServer.builder("billing", "1.0.0")
      .register(new BillingTools())
      .context(Tenant.class, request -> new Tenant("t_1"))
      .build();
  private final Pipe toServer = new Pipe();
  private final Pipe fromServer = new Pipe();
  private Thread serving;

  @AfterEach
  void stop() throws InterruptedException {
    toServer.out.close();
    if (serving != null) {
      serving.join(10_000);
    }
  }

  @Test
  void aClassicSessionNeverBuildsTheModernServer() throws IOException {
    ModernEra modern = server.edge().modernEra();
    BufferedReader reader = serve(modern);
    send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(read(reader).get("id")).isEqualTo(1);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
    assertThat(JSON.writeValueAsString(read(reader).get("result"))).contains("billing_get_invoice");
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"billing_get_invoice\","
        + "\"arguments\":{\"id\":\"INV-0001\"}}}");
    assertThat(((Map<?, ?>) read(reader).get("result")).get("isError")).isEqualTo(false);
    // The edge answers an unknown modern tool by itself, still without the modern server.
    send(call(4, "nope"));
    assertThat(((Map<?, ?>) read(reader).get("error")).get("code")).isEqualTo(-32602);
    assertThat(modern.started()).isFalse();

    // A modern tools/call is answered by the edge too; the first modern request the edge hands to
    // the SDK (here tools/list) builds the modern server.
    send(call(5, "billing_get_invoice"));
    Map<String, Object> answer = read(reader);
    assertThat(answer.get("id")).isEqualTo(5);
    assertThat(((Map<?, ?>) answer.get("result")).get("isError")).isEqualTo(false);
    assertThat(modern.started()).isFalse();
    send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\",\"params\":{" + META + "}}");
    assertThat(JSON.writeValueAsString(read(reader).get("result"))).contains("billing_get_invoice");
    assertThat(modern.started()).isTrue();
  }

  @Test
  void concurrentFirstRequestsBuildOneModernServer() throws Exception {
    ModernEra modern = server.edge().modernEra();
    int threads = 8;
    CountDownLatch ready = new CountDownLatch(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<McpServer>> built = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        built.add(pool.submit(() -> {
          ready.countDown();
          ready.await();
          return modern.server();
        }));
      }
      McpServer first = built.get(0).get(30, TimeUnit.SECONDS);
      for (Future<McpServer> each : built) {
        assertThat(each.get(30, TimeUnit.SECONDS)).isSameAs(first);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private BufferedReader serve(ModernEra modern) {
    serving = PipedStdio.serve(server, toServer, fromServer, "modern-start-stdio");
    return new BufferedReader(new InputStreamReader(fromServer.in, StandardCharsets.UTF_8));
  }

  private void send(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    toServer.out.write(bytes, 0, bytes.length);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> read(BufferedReader reader) throws IOException {
    String line = reader.readLine();
    assertThat(line).isNotNull();
    return JSON.readValue(line, Map.class);
  }

  private static String call(int id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":{\"id\":\"INV-0001\"}," + META + "}}";
  }
}
