package dev.mcpfusion.framework.states;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transition's {@code notifications/tools/list_changed} as real clients receive it: on the stdio
 * stream right after the call's result, and over Streamable HTTP on the session's GET event stream
 * (never on another session's); each HTTP session keeps a state of its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatesOverTransportsTest {
  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
      + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
      + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

  private static FusionServer server() {
    return FusionServer.builder("shop", "1.0.0").register(new OrderTools())
        .register(new CatalogTools()).build();
  }

  static String call(int id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"" + tool + "\",\"arguments\":{\"id\":\"A1\"}}}";
  }

  static String list(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}";
  }

  @SuppressWarnings("unchecked")
  static List<String> toolNames(String listReply) {
    Map<?, ?> result = (Map<?, ?>) ((Map<?, ?>) Json.parse(listReply)).get("result");
    List<String> names = new ArrayList<>();
    for (Object tool : (List<Object>) result.get("tools")) {
      names.add((String) ((Map<?, ?>) tool).get("name"));
    }
    return names;
  }

  @Test
  void overStdioTheNotificationFollowsTheResultOfTheTransition() throws Exception {
    FusionServer server = server();
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket listener = new ServerSocket(0, 1, loopback);
         Socket client = new Socket(loopback, listener.getLocalPort());
         Socket served = listener.accept()) {
      Thread transport = new Thread(() -> {
        try {
          new StdioTransport(served.getInputStream(), served.getOutputStream(), server.edge(),
              Duration.ofSeconds(5)).serve();
        } catch (IOException e) {
          // the test's assertions report what is missing
        }
      }, "states-stdio");
      transport.setDaemon(true);
      transport.start();
      OutputStream out = client.getOutputStream();
      BufferedReader in = new BufferedReader(
          new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
      send(out, INITIALIZE);
      assertThat(in.readLine()).contains("\"listChanged\":true");
      send(out, INITIALIZED);
      send(out, list(2));
      assertThat(toolNames(in.readLine())).contains("orders_pay").doesNotContain("orders_ship");

      send(out, call(3, "orders_pay"));
      String result = in.readLine();
      assertThat(result).startsWith("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":")
          .contains("\"isError\":false");
      assertThat(in.readLine()).isEqualTo(StatesTest.LIST_CHANGED);
      send(out, list(4));
      assertThat(toolNames(in.readLine())).contains("orders_ship").doesNotContain("orders_pay");
      client.shutdownOutput();
      transport.join(10_000);
    }
  }

  private static void send(OutputStream out, String line) throws IOException {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> post(String url, String session, String body) throws Exception {
    return post(url, session, body, Map.of());
  }

  private HttpResponse<String> post(String url, String session, String body,
      Map<String, String> headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String session(String url) throws Exception {
    HttpResponse<String> init = post(url, null, INITIALIZE);
    assertThat(init.body()).contains("\"listChanged\":true");
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post(url, session, INITIALIZED);
    return session;
  }

  /** Opens the session's GET event stream; its {@code data:} lines arrive in the queue. */
  private BlockingQueue<String> listen(String url, String session) throws Exception {
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    HttpRequest get = HttpRequest.newBuilder(URI.create(url))
        .header("Accept", "text/event-stream").header("Mcp-Session-Id", session).GET().build();
    HttpResponse<Stream<String>> response = http.sendAsync(get, HttpResponse.BodyHandlers.ofLines())
        .get(20, TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    Thread reader = new Thread(() -> response.body().filter(line -> line.startsWith("data:"))
        .forEach(line -> events.add(line.substring(5).trim())));
    reader.setDaemon(true);
    reader.start();
    return events;
  }

  @Test
  void overHttpTheNotificationReachesOnlyTheSessionThatMoved() throws Exception {
    try (FusionHttpServer running = FusionHttp.serve(server(),
        HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String mover = session(url);
      String bystander = session(url);
      BlockingQueue<String> heard = listen(url, mover);
      BlockingQueue<String> overheard = listen(url, bystander);

      HttpResponse<String> paid = post(url, mover, call(2, "orders_pay"));
      assertThat(paid.body()).contains("\"isError\":false");
      assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(StatesTest.LIST_CHANGED);
      assertThat(overheard.poll(500, TimeUnit.MILLISECONDS)).as("the other session's stream").isNull();

      assertThat(toolNames(post(url, mover, list(3)).body()))
          .contains("orders_ship").doesNotContain("orders_pay");
      // The other session is still in draft: its list and its calls follow its own state.
      assertThat(toolNames(post(url, bystander, list(3)).body()))
          .contains("orders_pay").doesNotContain("orders_ship");
      assertThat(post(url, bystander, call(4, "orders_ship")).body()).contains("WRONG_STATE")
          .contains("\"isError\":true");

      // The Mcp-Fusion-Tags header narrows the same session's list to the tools it names.
      assertThat(toolNames(post(url, bystander, list(5), Map.of("Mcp-Fusion-Tags", "read")).body()))
          .containsExactly("orders_show", "catalog_search");
      Map<?, ?> hidden = (Map<?, ?>) ((Map<?, ?>) Json.parse(post(url, bystander,
          call(6, "catalog_purge"), Map.of("Mcp-Fusion-Tags", "read")).body())).get("error");
      assertThat(((Map<?, ?>) hidden.get("data")).get("available"))
          .isEqualTo(List.of("orders_show", "catalog_search"));
    }
  }
}
