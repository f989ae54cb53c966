package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.samples.billing.fixtures.HttpWire;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.McpHeaders;
import dev.mcpfusion.wire.Meta;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code subscriptions/listen} over stateless 2026-07-28 HTTP, as a client sees it: the POST is
 * answered with an event stream that stays open, whose first message is
 * {@code notifications/subscriptions/acknowledged}; a mutation that invalidates the billing router
 * arrives on it as {@code notifications/resources/updated} for the URIs asked for, tagged with the
 * stream's id, and only on the streams of the mutating tenant (the sample's
 * {@code subscriptionScope(Tenant::from)}); a stream whose client went away is released; one past
 * the cap is refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenOverHttpTest {
  /** An OPEN invoice of the sample store (found in {@link #start}), which a void changes. */
  private String invoice;
  private String uriAsked;
  private static final String URI_OPEN = "billing://invoices/open";

  private final HttpWire wire = new HttpWire();
  private final List<Stream<String>> streams = new ArrayList<>();
  private FusionHttpServer running;
  private FusionServer server;

  @AfterEach
  void stop() {
    streams.forEach(Stream::close);
    if (running != null) {
      running.close();
    }
  }

  private String start(int maxStreams) throws Exception {
    server = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT)
        .listenStreams(maxStreams, Duration.ofMillis(50))
        .build();
    running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false));
    String url = "http://127.0.0.1:" + running.port() + "/mcp";
    invoice = firstOpenInvoice(url);
    uriAsked = "billing://invoices/" + invoice;
    return url;
  }

  private String firstOpenInvoice(String url) throws Exception {
    HttpResponse<String> list = call(url, "billing_list_invoices", Map.of("status", "OPEN"), "t_777");
    Map<?, ?> result = (Map<?, ?>) ((Map<?, ?>) Json.parse(list.body())).get("result");
    return (String) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) result.get("structuredContent"))
        .get("items")).get(0)).get("id");
  }

  private static Map<String, Object> meta() {
    return Map.of(Meta.PROTOCOL_VERSION, "2026-07-28", "io.modelcontextprotocol/clientCapabilities",
        Map.of());
  }

  private static String listenBody(Object id, List<String> uris) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("_meta", meta());
    params.put("notifications", Map.of("resourceSubscriptions", uris, "toolsListChanged", true));
    return Json.write(Map.of("jsonrpc", "2.0", "id", id, "method", JsonRpc.SUBSCRIPTIONS_LISTEN,
        "params", params));
  }

  /** A listen stream whose messages (the {@code data:} of its events) arrive in the queue. */
  private record Listening(HttpResponse<Stream<String>> response, BlockingQueue<Object> messages) {}

  private Listening listen(String url, Object id, List<String> uris, String tenant) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header(McpHeaders.PROTOCOL_VERSION, "2026-07-28")
        .header(McpHeaders.METHOD, JsonRpc.SUBSCRIPTIONS_LISTEN)
        .header("x-tenant-id", tenant)
        .POST(HttpRequest.BodyPublishers.ofString(listenBody(id, uris))).build();
    HttpResponse<Stream<String>> response = wire.client()
        .sendAsync(request, HttpResponse.BodyHandlers.ofLines()).get(20, TimeUnit.SECONDS);
    streams.add(response.body());
    BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try {
        response.body().filter(line -> line.startsWith("data:"))
            .forEach(line -> messages.add(Json.parse(line.substring(5).trim())));
      } catch (RuntimeException closed) {
        // The test closed the stream: the client went away.
      }
    });
    reader.setDaemon(true);
    reader.start();
    return new Listening(response, messages);
  }

  private HttpResponse<String> voidInvoice(String url, String tenant) throws Exception {
    return call(url, "billing_void_invoice", Map.of("id", invoice), tenant);
  }

  private HttpResponse<String> call(String url, String tool, Map<String, Object> arguments,
      String tenant) throws Exception {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("name", tool);
    params.put("arguments", arguments);
    params.put("_meta", meta());
    return wire.post(url, null, Json.write(Map.of("jsonrpc", "2.0", "id", 9,
        "method", JsonRpc.TOOLS_CALL, "params", params)), Map.of("x-tenant-id", tenant));
  }

  private static Object acknowledged(Object id, List<String> uris) {
    return Map.of("jsonrpc", "2.0", "method", JsonRpc.SUBSCRIPTIONS_ACKNOWLEDGED,
        "params", Map.of("_meta", Map.of(Meta.SUBSCRIPTION_ID, id),
            "notifications", Map.of("resourceSubscriptions", uris)));
  }

  private static Object updated(Object id, String uri) {
    return Map.of("jsonrpc", "2.0", "method", JsonRpc.RESOURCE_UPDATED,
        "params", Map.of("_meta", Map.of(Meta.SUBSCRIPTION_ID, id), "uri", uri));
  }

  private void awaitOpen(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.edge().listenStreams().open() != count && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(server.edge().listenStreams().open()).isEqualTo(count);
  }

  /**
   * The acknowledgement first (only the resource URIs are honoured: this server's lists never
   * change, so {@code toolsListChanged} is left out), then the update of the URI asked for, and
   * nothing for a URI the server does not serve, nor on another tenant's stream.
   */
  @Test
  void aListenStreamHearsOfTheMutationOfItsTenantOnly() throws Exception {
    String url = start(8);
    Listening mine = listen(url, "listen-1", List.of(uriAsked, "billing://nope/1"), "t_777");
    assertThat(mine.response().statusCode()).isEqualTo(200);
    assertThat(mine.response().headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/event-stream");
    assertThat(mine.messages().poll(10, TimeUnit.SECONDS))
        .isEqualTo(acknowledged("listen-1", List.of(uriAsked)));
    Listening other = listen(url, 7, List.of(uriAsked), "t_other");
    assertThat(other.messages().poll(10, TimeUnit.SECONDS))
        .isEqualTo(acknowledged(7L, List.of(uriAsked)));

    assertThat(voidInvoice(url, "t_777").body()).contains("\"isError\":false");

    assertThat(mine.messages().poll(10, TimeUnit.SECONDS)).isEqualTo(updated("listen-1", uriAsked));
    assertThat(mine.messages().poll(300, TimeUnit.MILLISECONDS)).as("nothing more").isNull();
    assertThat(other.messages().poll(100, TimeUnit.MILLISECONDS)).as("the other tenant").isNull();
  }

  /** A URI of this server the stream did not ask for is not sent on it. */
  @Test
  void aUriTheStreamDidNotAskForIsNotSent() throws Exception {
    String url = start(8);
    Listening open = listen(url, 1, List.of(URI_OPEN), "t_777");
    assertThat(open.messages().poll(10, TimeUnit.SECONDS))
        .isEqualTo(acknowledged(1L, List.of(URI_OPEN)));
    assertThat(voidInvoice(url, "t_777").body()).contains("\"isError\":false");
    // Both URIs belong to the invalidated router: the stream hears of the one it asked for only.
    assertThat(open.messages().poll(10, TimeUnit.SECONDS)).isEqualTo(updated(1L, URI_OPEN));
    assertThat(open.messages().poll(300, TimeUnit.MILLISECONDS)).isNull();
  }

  /**
   * A stream whose client closed its connection is released (the heartbeat finds the client gone),
   * which frees its place under the cap; one past the cap is refused with SERVER_BUSY.
   */
  @Test
  void aStreamIsReleasedWhenItsClientLeavesAndOnePastTheCapIsRefused() throws Exception {
    String url = start(1);
    Listening first = listen(url, 1, List.of(uriAsked), "t_777");
    assertThat(first.messages().poll(10, TimeUnit.SECONDS)).isNotNull();
    awaitOpen(1);

    HttpResponse<String> refused = wire.post(url, null, listenBody(2, List.of(uriAsked)));
    Map<?, ?> error = (Map<?, ?>) ((Map<?, ?>) Json.parse(refused.body())).get("error");
    assertThat(error.get("code")).isEqualTo((long) JsonRpc.SERVER_BUSY);
    assertThat((String) error.get("message")).isEqualTo("Server busy: 1 listen streams are open,"
        + " the most this server holds; close one you no longer read, or retry later.");

    first.response().body().close();
    awaitOpen(0);
    Listening again = listen(url, 3, List.of(uriAsked), "t_777");
    assertThat(again.messages().poll(10, TimeUnit.SECONDS))
        .isEqualTo(acknowledged(3L, List.of(uriAsked)));
  }

  /** When the server stops, each stream ends with its (empty) result: the spec's graceful end. */
  @Test
  void aStoppingServerEndsTheStreamWithItsResult() throws Exception {
    String url = start(8);
    Listening mine = listen(url, 5, List.of(uriAsked), "t_777");
    assertThat(mine.messages().poll(10, TimeUnit.SECONDS)).isNotNull();
    running.close();
    Map<?, ?> end = (Map<?, ?>) mine.messages().poll(10, TimeUnit.SECONDS);
    assertThat(end).isNotNull();
    assertThat(end.get("id")).isEqualTo(5L);
    assertThat(((Map<?, ?>) end.get("result")).get("resultType")).isEqualTo("complete");
  }
}
