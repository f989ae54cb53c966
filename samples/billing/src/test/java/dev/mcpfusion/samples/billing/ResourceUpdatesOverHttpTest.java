package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.fixtures.HttpWire;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Resource subscriptions over Streamable HTTP, as a real client sees them: a session subscribes to
 * an invoice, keeps its GET event stream open, and a mutation that invalidates the billing router
 * arrives there as {@code notifications/resources/updated}; a session that did not subscribe, or
 * that belongs to another tenant, gets nothing on its own stream.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResourceUpdatesOverHttpTest {
  private final HttpWire wire = new HttpWire();

  private HttpResponse<String> post(String url, String session, String body) throws Exception {
    return wire.post(url, session, body);
  }

  private String session(String url) throws Exception {
    return wire.session(url);
  }

  /** Opens the session's GET event stream; its {@code data:} lines arrive in the queue. */
  private BlockingQueue<String> listen(String url, String session) throws Exception {
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    HttpRequest get = HttpRequest.newBuilder(URI.create(url))
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", session)
        .GET().build();
    CompletableFuture<HttpResponse<Stream<String>>> stream =
        wire.client().sendAsync(get, HttpResponse.BodyHandlers.ofLines());
    HttpResponse<Stream<String>> response = stream.get(20, TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    Thread reader = new Thread(() -> response.body()
        .filter(line -> line.startsWith("data:"))
        .forEach(line -> events.add(line.substring(5).trim())));
    reader.setDaemon(true);
    reader.start();
    return events;
  }

  private static String call(Object id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":" + arguments + "}}";
  }

  private String firstOpenInvoice(String url, String session) throws Exception {
    HttpResponse<String> list = post(url, session,
        call(2, "billing_list_invoices", "{\"status\":\"OPEN\"}"));
    Map<?, ?> result = (Map<?, ?>) ((Map<?, ?>) Json.parse(list.body())).get("result");
    return (String) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) result.get("structuredContent"))
        .get("items")).get(0)).get("id");
  }

  /**
   * Three sessions: one subscribed, one that makes the change without subscribing, and one of
   * another tenant subscribed to the same URI. The sample scopes subscriptions by tenant
   * ({@code subscriptionScope(Tenant::from)}), so only the first hears of it.
   */
  @Test
  void onlyTheSubscribedSessionsOfTheMutatingTenantHearOfTheChange() throws Exception {
    FusionServer server = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT).build();
    try (FusionHttpServer running = FusionHttp.serve(server,
        HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String subscriber = session(url);
      String bystander = session(url);
      String otherTenant = session(url);
      BlockingQueue<String> heard = listen(url, subscriber);
      BlockingQueue<String> overheard = listen(url, bystander);
      BlockingQueue<String> otherHeard = listen(url, otherTenant);

      String open = firstOpenInvoice(url, subscriber);
      String uri = "billing://invoices/" + open;
      String subscribe = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/subscribe\","
          + "\"params\":{\"uri\":\"" + uri + "\"}}";
      assertThat(post(url, subscriber, subscribe).body())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
      assertThat(wire.post(url, otherTenant, subscribe, Map.of("x-tenant-id", "t_other")).body())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");

      HttpResponse<String> voided = post(url, bystander,
          call(4, "billing_void_invoice", "{\"id\":\"" + open + "\"}"));
      assertThat(voided.body()).contains("\"isError\":false");

      String event = heard.poll(10, TimeUnit.SECONDS);
      assertThat(event).as("the subscriber's event stream").isNotNull();
      assertThat(Json.parse(event)).isEqualTo(Json.parse("{\"jsonrpc\":\"2.0\","
          + "\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"" + uri + "\"}}"));
      // The others' streams stay quiet: the event above was sent after all three were listening.
      assertThat(overheard.poll(500, TimeUnit.MILLISECONDS)).as("the bystander's stream").isNull();
      assertThat(otherHeard.poll(100, TimeUnit.MILLISECONDS)).as("the other tenant's stream").isNull();
    }
  }
}
