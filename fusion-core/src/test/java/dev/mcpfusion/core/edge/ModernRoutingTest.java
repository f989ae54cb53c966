package dev.mcpfusion.core.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.server.fixture.BillingTools;
import dev.mcpfusion.core.server.fixture.Tenant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/** The routing rule, and raw 2026-07-28 lines on a stdio stream that never saw initialize. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModernRoutingTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private static final Edge ROUTER = FusionServer.builder("r", "1").register(new BillingTools())
      .context(Tenant.class, request -> new Tenant("t")).build().edge();

  private final Pipe toServer = new Pipe();
  private final Pipe fromServer = new Pipe();
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final CyclicBarrier meeting = new CyclicBarrier(16);
  private BufferedReader reader;
  private Thread serving;

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    toServer.out.close();
    if (serving != null) {
      serving.join(10_000);
    }
  }

  private void start() {
    FusionServer server = FusionServer.builder("billing", "1.0.0")
        .register(new BillingTools())
        .context(Tenant.class, request -> new Tenant("t_1"))
        .middleware((call, next) -> {
          if ("INV-0077".equals(call.arguments().get("id"))) {
            entered.countDown();
            release.await(30, TimeUnit.SECONDS);
          }
          if ("INV-0016".equals(call.arguments().get("id"))) {
            meeting.await(30, TimeUnit.SECONDS);
          }
          return next.proceed(call);
        })
        .build();
    serving = PipedStdio.serve(server, toServer, fromServer,
        "modern-routing-stdio");
    reader = new BufferedReader(new InputStreamReader(fromServer.in, StandardCharsets.UTF_8));
  }

  private void send(String line) {
    toServer.out.write((line + "\n").getBytes(StandardCharsets.UTF_8), 0,
        (line + "\n").getBytes(StandardCharsets.UTF_8).length);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> read() throws IOException {
    String line = reader.readLine();
    assertThat(line).isNotNull();
    return JSON.readValue(line, Map.class);
  }

  private static String call(Object id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + JSON.writeValueAsString(id) + ",\"method\":\"tools/call\","
        + "\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "," + META + "}}";
  }

  @Test
  void theRoutingRule() {
    assertThat(modern(call(1, "x", "{}"))).isTrue();
    assertThat(modern("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}")).isTrue();
    // classic: initialize, a plain tools/call, other _meta keys, notifications
    assertThat(modern("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
        + "\"params\":{\"protocolVersion\":\"2026-07-28\"}}")).isFalse();
    assertThat(modern("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
        + "\"params\":{\"name\":\"x\",\"_meta\":{\"progressToken\":1}}}")).isFalse();
    // a 2026-07-28 notification belongs to that era too (the edge acts on it only to cancel)
    assertThat(modern("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
        + "\"params\":{\"requestId\":1," + META + "}}")).isTrue();
  }

  private static boolean modern(String json) {
    return ROUTER.read(json).isModern();
  }

  @Test
  void modernLinesNeedNoHandshake() throws IOException {
    start();
    send(call(1, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
    Map<String, Object> first = read();
    assertThat(first.get("id")).isEqualTo(1);
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) first.get("result");
    assertThat(result.get("isError")).isEqualTo(false);
    assertThat(result.get("structuredContent")).isInstanceOf(Map.class);
    assertThat(((Map<?, ?>) result.get("_meta")).containsKey("io.modelcontextprotocol/serverInfo")).isTrue();

    send("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{" + META + "}}");
    Map<String, Object> discover = read();
    assertThat(discover.get("id")).isEqualTo("d");
    assertThat(JSON.writeValueAsString(discover.get("result"))).contains("2026-07-28").contains("\"tools\"");

    // An unsupported version is the SDK's -32022, even for an unknown tool (our edge waits for a known version).
    send(call(2, "nope", "{}").replace("\"2026-07-28\"", "\"2099-01-01\""));
    Map<String, Object> future = read();
    assertThat(future.get("id")).isEqualTo(2);
    assertThat(((Map<?, ?>) future.get("error")).get("code")).isEqualTo(-32022);

    send(call(3, "nope", "{}"));
    Map<String, Object> unknown = read();
    assertThat(((Map<?, ?>) unknown.get("error")).get("code")).isEqualTo(-32602);
    assertThat((String) ((Map<?, ?>) unknown.get("error")).get("message"))
        .startsWith("<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">");
  }

  @Test
  void aCancelledModernRequestIsNeverAnsweredAndTheStreamGoesOn() throws Exception {
    start();
    send(call(5, "billing_get_invoice", "{\"id\":\"INV-0077\"}"));
    assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5}}");
    send(call(6, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
    List<Object> ids = new ArrayList<>();
    ids.add(read().get("id"));
    release.countDown();
    send(call(7, "billing_get_invoice", "{\"id\":\"INV-0002\"}"));
    ids.add(read().get("id"));
    // 5 finished in the pipeline after its cancellation; its answer was dropped, not written.
    send(call(8, "billing_get_invoice", "{\"id\":\"INV-0003\"}"));
    ids.add(read().get("id"));
    assertThat(ids).containsExactly(6, 7, 8);
  }

  @Test
  void sixteenModernCallsInFlightRunAtTheSameTime() throws IOException {
    start();
    for (int i = 0; i < 16; i++) {
      send(call(100 + i, "billing_get_invoice", "{\"id\":\"INV-0016\"}"));
    }
    List<Object> ids = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      Map<String, Object> reply = read();
      // Only a barrier all 16 handlers reached together releases them; one at a time would time
      // out inside the first and answer INTERNAL_ERROR.
      assertThat(((Map<?, ?>) reply.get("result")).get("isError")).isEqualTo(false);
      ids.add(reply.get("id"));
    }
    assertThat(ids).containsExactlyInAnyOrder(100, 101, 102, 103, 104, 105, 106, 107, 108, 109,
        110, 111, 112, 113, 114, 115);
  }

  /**
   * {@code subscriptions/listen} over stdio: the acknowledgement comes on the stream (this server
   * serves no resource, so it honours none), the request stays open without a reply, another
   * request with its id is refused while it is, and after {@code notifications/cancelled} (which
   * gets no reply) the id is free again; other requests are answered meanwhile.
   */
  @Test
  void aListenOverStdioIsAcknowledgedOnTheStreamAndEndsWhenCancelled() throws Exception {
    start();
    String listen = "{\"jsonrpc\":\"2.0\",\"id\":\"l1\",\"method\":\"subscriptions/listen\","
        + "\"params\":{\"notifications\":{\"resourceSubscriptions\":[\"billing://invoices/INV-0001\"]},"
        + META + "}}";
    send(listen);
    Map<String, Object> ack = read();
    assertThat(ack.get("method")).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(ack.get("params")).isEqualTo(Map.of(
        "_meta", Map.of("io.modelcontextprotocol/subscriptionId", "l1"),
        "notifications", Map.of("resourceSubscriptions", List.of())));
    send(listen);
    @SuppressWarnings("unchecked")
    Map<String, Object> refused = (Map<String, Object>) read().get("error");
    assertThat(refused.get("code")).isEqualTo(-32600);
    assertThat((String) refused.get("message")).contains("is still in flight; use a new id");
    send(call(2, "billing_get_invoice", "{\"id\":\"INV-0001\"}"));
    assertThat(read().get("id")).isEqualTo(2);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"l1\"}}");
    send(listen);
    Map<String, Object> again = read();
    assertThat(again.get("method")).as("no reply to the cancelled stream first")
        .isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(again.get("params")).isEqualTo(ack.get("params"));
  }
}
