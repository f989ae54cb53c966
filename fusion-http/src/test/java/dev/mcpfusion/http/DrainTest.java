package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.http.fixtures.Ops;
import dev.mcpfusion.http.fixtures.RawHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A graceful stop: readiness turns 503 and new requests are refused with {@code Retry-After} while
 * the calls in flight finish; a call still running when the grace ends is answered with a clean
 * error carrying its id.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DrainTest {
  private final RawHttp raw = new RawHttp();
  private final HttpClient http = raw.client();
  private final Ops.OpsTools tools = new Ops.OpsTools();

  private FusionServer server() {
    return FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(tools))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
  }

  private static HttpRequest post(URI endpoint, String session, String body) {
    return RawHttp.post(endpoint, session, body);
  }

  private String open(URI endpoint) throws Exception {
    return raw.open(endpoint);
  }

  private static String slow(int id, long millis) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
        + "\"ops_slow\",\"arguments\":{\"millis\":" + millis + "}}}";
  }

  private HttpResponse<String> ready(URI probe) throws Exception {
    return http.send(HttpRequest.newBuilder(probe).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aHeldCallFinishesWhileReadinessAndNewRequestsAreRefused() throws Exception {
    FusionHttpServer running = FusionHttp.serve(server(), HttpOptions.port(0).stopOnShutdownSignal(false)
        .shutdownGrace(Duration.ofSeconds(20)));
    URI endpoint = running.endpoint();
    URI probe = endpoint.resolve(FusionHttp.READY_PATH);
    String session = open(endpoint);
    CompletableFuture<HttpResponse<String>> held = http.sendAsync(post(endpoint, session, slow(2, 2000)),
        HttpResponse.BodyHandlers.ofString());
    assertThat(tools.slowStarted.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ready(probe).statusCode()).isEqualTo(200);

    Thread closer = new Thread(running::close, "closer");
    closer.start();
    HttpResponse<String> notReady = ready(probe);
    for (int i = 0; i < 500 && notReady.statusCode() == 200; i++) {
      Thread.sleep(10);
      notReady = ready(probe);
    }
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.body()).isEqualTo("{\"status\":\"draining\"}");
    assertThat(notReady.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(held).isNotDone();

    HttpResponse<String> refused = http.send(post(endpoint, session,
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"ops_echo\","
            + "\"arguments\":{\"text\":\"hi\"}}}"), HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
    Map<?, ?> error = (Map<?, ?>) ((Map<?, ?>) Json.parse(refused.body())).get("error");
    assertThat(error.get("message")).isEqualTo(McpHttpServlet.DRAINING_MESSAGE);

    HttpResponse<String> finished = held.get(30, TimeUnit.SECONDS);
    assertThat(finished.statusCode()).isEqualTo(200);
    assertThat(finished.body()).contains("slept 2000").doesNotContain("\"error\"");
    closer.join(30_000);
    assertThat(closer.isAlive()).isFalse();
    assertThat(running.isRunning()).isFalse();
  }

  @Test
  void aCallBeyondTheGraceIsAnsweredWithACleanErrorCarryingItsId() throws Exception {
    FusionHttpServer running = FusionHttp.serve(server(), HttpOptions.port(0).stopOnShutdownSignal(false)
        .shutdownGrace(Duration.ofMillis(300)));
    URI endpoint = running.endpoint();
    String session = open(endpoint);
    CompletableFuture<HttpResponse<String>> held = http.sendAsync(post(endpoint, session, slow(7, 20_000)),
        HttpResponse.BodyHandlers.ofString());
    assertThat(tools.slowStarted.await(30, TimeUnit.SECONDS)).isTrue();

    long before = System.nanoTime();
    running.close();
    HttpResponse<String> cut = held.get(30, TimeUnit.SECONDS);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before)).isLessThan(15_000);
    Map<?, ?> reply = (Map<?, ?>) Json.parse(cut.body());
    assertThat(reply.get("id")).isEqualTo(7L);
    Map<?, ?> error = (Map<?, ?>) reply.get("error");
    assertThat(error.get("message")).isEqualTo(PostRequests.CUT_MESSAGE);
    assertThat(cut.body()).doesNotContain("Exception").doesNotContain("dev.mcpfusion");
  }

  @Test
  void aStatelessCallBeyondTheGraceIsCutTheSameWay() throws Exception {
    FusionHttpServer running = FusionHttp.serve(server(), HttpOptions.port(0).stopOnShutdownSignal(false)
        .shutdownGrace(Duration.ofMillis(300)));
    HttpRequest modern = HttpRequest.newBuilder(running.endpoint())
        .timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", "ops_slow")
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":\"m-1\",\"method\":"
            + "\"tools/call\",\"params\":{\"name\":\"ops_slow\",\"arguments\":{\"millis\":20000},"
            + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}"))
        .build();
    CompletableFuture<HttpResponse<String>> held = http.sendAsync(modern, HttpResponse.BodyHandlers.ofString());
    assertThat(tools.slowStarted.await(30, TimeUnit.SECONDS)).isTrue();

    running.close();
    HttpResponse<String> cut = held.get(30, TimeUnit.SECONDS);
    Map<?, ?> reply = (Map<?, ?>) Json.parse(cut.body());
    assertThat(reply.get("id")).isEqualTo("m-1");
    assertThat(((Map<?, ?>) reply.get("error")).get("message")).isEqualTo(PostRequests.CUT_MESSAGE);
  }
}
