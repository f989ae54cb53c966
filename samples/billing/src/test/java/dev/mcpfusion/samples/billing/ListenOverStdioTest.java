package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.edge.Edge;
import dev.mcpfusion.core.edge.EdgeSession;
import dev.mcpfusion.core.edge.Inbound;
import dev.mcpfusion.core.edge.Sink;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code subscriptions/listen} over stdio, as a client that spawned the sample sees it: the
 * acknowledgement and the updates arrive on stdout among the other replies, each tagged with the
 * listen request's id; a mutation is heard only on the streams of its tenant (the sample's
 * {@code subscriptionScope(Tenant::from)}, here from {@code _meta.tenant}); the client ends a
 * stream with {@code notifications/cancelled} (no reply), and closing stdin ends the rest and the
 * process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenOverStdioTest {
  private Process process;
  private OutputStream stdin;
  private final BlockingQueue<Map<?, ?>> lines = new LinkedBlockingQueue<>();
  /** Every line read so far, in order (what {@link #lines} handed out, and what it still holds). */
  private final List<Map<?, ?>> seen = new ArrayList<>();

  @AfterEach
  void stop() {
    if (process != null) {
      process.destroyForcibly();
    }
  }

  private void start() throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path stderr = Files.createTempFile("billing-listen-stderr", ".log");
    process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        BillingMain.class.getName()).redirectError(stderr.toFile()).start();
    stdin = process.getOutputStream();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          lines.add((Map<?, ?>) Json.parse(line));
        }
      } catch (IOException ended) {
        // The process is gone: what it wrote is in the queue.
      }
    });
    reader.setDaemon(true);
    reader.start();
  }

  private void send(Map<String, Object> message) throws IOException {
    stdin.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  private static Map<String, Object> meta(String tenant) {
    return Map.of(Meta.PROTOCOL_VERSION, "2026-07-28", Meta.CLIENT_CAPABILITIES, Map.of(),
        "tenant", tenant);
  }

  private static Map<String, Object> request(Object id, String method, Map<String, Object> params) {
    return Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params);
  }

  private static Map<String, Object> listen(Object id, String tenant, String... uris) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta(tenant));
    params.put("notifications", Map.of("resourceSubscriptions", List.of(uris),
        "toolsListChanged", true));
    return request(id, JsonRpc.SUBSCRIPTIONS_LISTEN, params);
  }

  private static Map<String, Object> call(Object id, String tenant, String tool,
      Map<String, Object> arguments) {
    return request(id, JsonRpc.TOOLS_CALL, Map.of("name", tool, "arguments", arguments,
        "_meta", meta(tenant)));
  }

  /** Reads lines until the reply to {@code id}, keeping every line in {@link #seen}. */
  private Map<?, ?> replyTo(Object id) throws InterruptedException {
    while (true) {
      Map<?, ?> line = lines.poll(20, TimeUnit.SECONDS);
      assertThat(line).as("a line before the reply to %s; seen: %s", id, seen).isNotNull();
      seen.add(line);
      if (id.equals(line.get("id"))) {
        return line;
      }
    }
  }

  /** The {@code params} of each {@code method} notification seen so far on stream {@code id}. */
  private List<Map<?, ?>> onStream(Object id, String method) {
    List<Map<?, ?>> out = new ArrayList<>();
    for (Map<?, ?> line : seen) {
      if (method.equals(line.get("method")) && line.get("params") instanceof Map<?, ?> params
          && params.get("_meta") instanceof Map<?, ?> m && id.equals(m.get(Meta.SUBSCRIPTION_ID))) {
        out.add(params);
      }
    }
    return out;
  }

  /**
   * Reads lines until stream {@code id} has had an update: it is written after the call's reply,
   * by the call's thread.
   */
  private void awaitUpdate(Object id) throws InterruptedException {
    while (onStream(id, JsonRpc.RESOURCE_UPDATED).isEmpty()) {
      Map<?, ?> line = lines.poll(20, TimeUnit.SECONDS);
      assertThat(line).as("an update on %s; seen: %s", id, seen).isNotNull();
      seen.add(line);
    }
  }

  /**
   * Reads lines until stream {@code id} is acknowledged: calls run concurrently over stdio, so a
   * mutation sent right after a listen may run first; the acknowledgement says the stream hears.
   */
  private void awaitAck(Object id) throws InterruptedException {
    while (onStream(id, JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED).isEmpty()) {
      Map<?, ?> line = lines.poll(20, TimeUnit.SECONDS);
      assertThat(line).as("the acknowledgement of %s; seen: %s", id, seen).isNotNull();
      seen.add(line);
    }
  }

  private String firstOpenInvoice(Object id) throws Exception {
    Map<?, ?> result = (Map<?, ?>) replyTo(id).get("result");
    return (String) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) result.get("structuredContent"))
        .get("items")).get(0)).get("id");
  }

  @Test
  void aStreamOverStdioHearsItsTenantsMutationUntilItIsCancelled() throws Exception {
    start();
    send(call("list", "t_777", "billing_list_invoices", Map.of("status", "OPEN")));
    String invoice = firstOpenInvoice("list");
    String uri = "billing://invoices/" + invoice;

    send(listen("mine", "t_777", uri, "billing://nope/1"));
    send(listen("theirs", "t_other", uri));
    awaitAck("mine");
    awaitAck("theirs");
    send(call("void", "t_777", "billing_void_invoice", Map.of("id", invoice)));
    assertThat(Json.write(replyTo("void"))).contains("\"isError\":false");
    awaitUpdate("mine");
    send(call("list2", "t_777", "billing_list_invoices", Map.of("status", "OPEN")));
    String next = firstOpenInvoice("list2");

    assertThat(onStream("mine", JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED)).singleElement()
        .satisfies(ack -> assertThat(ack.get("notifications"))
            .isEqualTo(Map.of("resourceSubscriptions", List.of(uri))));
    assertThat(onStream("theirs", JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED)).hasSize(1);
    assertThat(onStream("mine", JsonRpc.RESOURCE_UPDATED)).singleElement()
        .satisfies(update -> assertThat(update.get("uri")).isEqualTo(uri));
    // Acknowledged before its first update, on the one channel the streams share.
    assertThat(seen.indexOf(seen.stream().filter(l -> JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED.equals(
        l.get("method")) && Json.write(l).contains("\"mine\"")).findFirst().orElseThrow()))
        .isLessThan(seen.indexOf(seen.stream().filter(l -> JsonRpc.RESOURCE_UPDATED.equals(
            l.get("method"))).findFirst().orElseThrow()));

    // Cancelled, the stream hears nothing more and gets no reply; the other tenant's goes on.
    send(Map.of("jsonrpc", "2.0", "method", "notifications/cancelled",
        "params", Map.of("requestId", "mine")));
    String uriNext = "billing://invoices/" + next;
    send(listen("mine-again", "t_777", uriNext));
    awaitAck("mine-again");
    send(call("void2", "t_777", "billing_void_invoice", Map.of("id", next)));
    assertThat(Json.write(replyTo("void2"))).contains("\"isError\":false");
    awaitUpdate("mine-again");

    // End of input ends the open streams and the process,
    // without a reply to any of them; all the process wrote is read by then.
    stdin.close();
    assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
    Map<?, ?> line;
    while ((line = lines.poll(2, TimeUnit.SECONDS)) != null) {
      seen.add(line);
    }
    assertThat(onStream("mine-again", JsonRpc.RESOURCE_UPDATED)).singleElement()
        .satisfies(update -> assertThat(update.get("uri")).isEqualTo(uriNext));
    assertThat(onStream("mine", JsonRpc.RESOURCE_UPDATED)).as("after its cancel").hasSize(1);
    assertThat(onStream("theirs", JsonRpc.RESOURCE_UPDATED)).as("the other tenant").isEmpty();
    assertThat(seen).noneMatch(l -> "mine".equals(l.get("id")) || "theirs".equals(l.get("id"))
        || "mine-again".equals(l.get("id")));
  }

  /**
   * A client may mutate the moment it has read the acknowledgement, before the thread that wrote
   * it goes on: the stream hears that mutation. Here the "client" makes its call from inside the
   * acknowledgement's write, the earliest it could; the update follows the acknowledgement.
   */
  @Test
  void aMutationMadeTheMomentTheAcknowledgementIsReadIsHeard() throws Exception {
    FusionServer server = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT).build();
    Edge edge = server.edge();
    List<String> written = new CopyOnWriteArrayList<>();
    EdgeSession[] session = new EdgeSession[1];
    String voidCall = Json.write(call("void", "t_777", "billing_void_invoice",
        Map.of("id", "INV-0003")));
    Sink client = new Sink() {
      @Override
      public void reply(Object id, int errorCode, byte[] json) {
        written.add(new String(json, StandardCharsets.UTF_8));
      }

      @Override
      public void push(byte[] json) {
        String message = new String(json, StandardCharsets.UTF_8);
        written.add(message);
        if (message.contains(JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED)) {
          edge.dispatch(edge.read(voidCall), Inbound.stdio(), session[0], this);
        }
      }
    };
    session[0] = edge.openSession(client);
    edge.dispatch(edge.read(Json.write(listen("mine", "t_777", "billing://invoices/INV-0003"))),
        Inbound.stdio(), session[0], client);

    assertThat(written).as("acknowledgement, the call's reply, then the update").hasSize(3);
    assertThat(written.get(0)).contains(JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED);
    assertThat(written.get(1)).contains("\"id\":\"void\"").contains("\"isError\":false");
    assertThat(written.get(2)).contains(JsonRpc.RESOURCE_UPDATED)
        .contains("billing://invoices/INV-0003").contains("\"mine\"");
  }
}
