package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** stdio hands every line to the edge, which parses it exactly once (nothing else parses it). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StdioParseOnceTest {
  @Test
  void everyLineIsParsedOnceByTheEdge() throws Exception {
    FusionServer server = FusionServer.builder("billing", "1.0.0").register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_1")).build();
    Pipe toServer = new Pipe();
    Pipe fromServer = new Pipe();
    Thread serving = PipedStdio.serve(server, toServer, fromServer, "parse-once-stdio");
    BufferedReader reader = new BufferedReader(new InputStreamReader(fromServer.in, StandardCharsets.UTF_8));
    List<String> lines = List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"billing_get_invoice\","
            + "\"arguments\":{\"id\":\"INV-0001\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"billing_get_invoice\","
            + "\"arguments\":{\"id\":\"INV-0002\"},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}",
        "not json");
    long before = server.edge().messagesParsed();
    for (String line : lines) {
      byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
      toServer.out.write(bytes, 0, bytes.length);
    }
    for (int replies = 0; replies < 6; replies++) {
      assertThat(reader.readLine()).isNotNull();
    }
    toServer.out.close();
    serving.join(10_000);
    assertThat(server.edge().messagesParsed() - before).isEqualTo(lines.size());
  }
}
