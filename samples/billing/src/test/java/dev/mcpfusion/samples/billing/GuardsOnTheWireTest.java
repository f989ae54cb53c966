package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.fixtures.GuardedFeatures;
import dev.mcpfusion.samples.billing.fixtures.GuardedTools;
import dev.mcpfusion.samples.billing.fixtures.HttpWire;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The deadline on real transports: the TIMEOUT reply leaves at the deadline while the handler,
 * which ignores its interrupt, is still running — over Streamable HTTP, stateless HTTP and stdio,
 * for tools and for prompts, resources and completions alike —
 * and the stdio transport never starts more threads than the server's gates admit calls. Over
 * HTTP the client's next request is answered too, although the handler still holds the thread of
 * the first (the early reply closes its HTTP/1.1 connection; a client that reused it would wait),
 * also when the response had become an event stream before the deadline.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuardsOnTheWireTest {
  private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
      + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
  private final HttpWire wire = new HttpWire();

  private static String call(Object id, String tool, String arguments, boolean modern) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":" + arguments + (modern ? "," + MODERN_META : "") + "}}";
  }

  private HttpResponse<String> post(String url, String session, String body) throws Exception {
    return wire.post(url, session, body);
  }

  private String session(String url) throws Exception {
    return wire.session(url);
  }

  @Test
  void overStreamableHttpTheTimeoutLeavesWhileTheHandlerStillRuns() throws Exception {
    GuardedTools tools = new GuardedTools();
    FusionServer server = FusionServer.builder("guards", "1").register(tools).build();
    try (FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = session(url);

      // The handlers spin until released, and they are released only after both replies came:
      // a reply that waited for its handler would never come (the client gives up after 20 s).
      HttpResponse<String> classic;
      HttpResponse<String> next;
      try {
        classic = post(url, session, call(2, "guarded_stubborn", "{}", false));
        // The same client sends its next request at once, while the first handler still spins.
        next = post(url, session, call(5, "guarded_stubborn", "{}", false));
        assertThat(tools.stubbornReturned.get()).as("no handler has returned").isFalse();
      } finally {
        tools.release.countDown();
      }
      for (HttpResponse<String> r : List.of(classic, next)) {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("TIMEOUT").doesNotContain("LATE-RESULT");
      }
      assertThat(classic.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,");
      assertThat(next.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":5,");
    }
  }

  @Test
  void overStatelessHttpTheTimeoutLeavesWhileTheHandlerStillRuns() throws Exception {
    GuardedTools tools = new GuardedTools();
    FusionServer server = FusionServer.builder("guards", "1").register(tools).build();
    try (FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      HttpResponse<String> modern;
      HttpResponse<String> next;
      try {
        modern = post(url, null, call(3, "guarded_stubborn", "{}", true));
        // The same client sends its next request at once, while the first handler still spins.
        next = post(url, null, call(4, "guarded_stubborn", "{}", true));
        assertThat(tools.stubbornReturned.get()).as("no handler has returned").isFalse();
      } finally {
        tools.release.countDown();
      }
      for (HttpResponse<String> r : List.of(modern, next)) {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("TIMEOUT").doesNotContain("LATE-RESULT");
      }
      assertThat(modern.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":3,");
      assertThat(next.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":4,");
    }
  }

  /**
   * A handler that reports progress first opens its response as an event stream, whose headers
   * have left before the deadline passes: the stream still ends at the deadline with the TIMEOUT
   * event, and the response says {@code Connection: close} so the next request is answered on a
   * new connection while the handler still spins — in both eras.
   */
  @Test
  void aStreamedResponseEndsAtTheDeadlineAndTheNextRequestIsNotHeldBack() throws Exception {
    GuardedTools tools = new GuardedTools();
    FusionServer server = FusionServer.builder("guards", "1").register(tools).build();
    try (FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = session(url);
      String classicCall = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"guarded_stubborn_streaming\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p2\"}}}";
      String modernCall = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"guarded_stubborn_streaming\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p3\","
          + MODERN_META.substring("\"_meta\":{".length()) + "}}";
      List<HttpResponse<String>> streamed = new ArrayList<>();
      List<HttpResponse<String>> next = new ArrayList<>();
      try {
        streamed.add(post(url, session, classicCall));
        next.add(post(url, session, call(4, "guarded_stubborn", "{}", false)));
        streamed.add(post(url, null, modernCall));
        next.add(post(url, null, call(5, "guarded_stubborn", "{}", true)));
        assertThat(tools.stubbornReturned.get()).as("no handler has returned").isFalse();
      } finally {
        tools.release.countDown();
      }
      for (HttpResponse<String> r : streamed) {
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(r.headers().firstValue("Connection")).hasValue("close");
        assertThat(r.body()).contains("notifications/progress").contains("TIMEOUT")
            .doesNotContain("LATE-RESULT");
        // The progress event first, the TIMEOUT reply last.
        assertThat(r.body().indexOf("notifications/progress")).isLessThan(r.body().indexOf("TIMEOUT"));
      }
      for (HttpResponse<String> r : next) {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("TIMEOUT").doesNotContain("LATE-RESULT");
      }
    }
  }

  @Test
  void overStdioTheTimeoutLeavesWhileTheHandlerStillRunsAndThreadsStayBounded() throws Exception {
    GuardedTools tools = new GuardedTools();
    FusionServer server = FusionServer.builder("guards", "1").register(tools).build();
    Pipe input = Pipe.open();
    Pipe output = Pipe.open();
    OutputStream toServer = Channels.newOutputStream(input.sink());
    OutputStream serverOut = Channels.newOutputStream(output.sink());
    BufferedReader fromServer = new BufferedReader(new InputStreamReader(
        Channels.newInputStream(output.source()), StandardCharsets.UTF_8));
    StdioTransport transport = new StdioTransport(Channels.newInputStream(input.source()), serverOut,
        server.edge(), Duration.ofSeconds(30));
    Thread serving = new Thread(() -> {
      try {
        transport.serve();
        serverOut.close();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    }, "guards-stdio");
    serving.start();
    // The gates admit 17 calls at once (router 1, stubborn 4, stubbornStreaming 4, big 8): one
    // thread more reads on.
    assertThat(transport.maxThreads()).isEqualTo(18);

    int calls = 40;
    StringBuilder burst = new StringBuilder();
    for (int i = 0; i < calls; i++) {
      burst.append(call(i, "guarded_stubborn", "{}", true)).append('\n');
    }
    toServer.write(burst.toString().getBytes(StandardCharsets.UTF_8));
    toServer.flush();
    List<String> replies = new ArrayList<>();
    try {
      for (int i = 0; i < calls; i++) {
        replies.add(fromServer.readLine());
      }
      // Every reply is out while the admitted handlers still spin.
      assertThat(tools.stubbornReturned.get()).as("no handler has returned").isFalse();
    } finally {
      tools.release.countDown();
      toServer.close();
    }
    serving.join(30_000);

    assertThat(replies.stream().filter(r -> r.contains("code=\\\"TIMEOUT\\\""))).hasSize(4);
    assertThat(replies.stream().filter(r -> r.contains("code=\\\"SERVER_BUSY\\\""))).hasSize(calls - 4);
    assertThat(replies).noneMatch(r -> r.contains("LATE-RESULT"));
    assertThat(transport.peakThreads()).isLessThanOrEqualTo(transport.maxThreads());
  }

  // ---- prompts, resources, completions ---------------------------------------------------------

  private static String request(Object id, String method, String params, boolean modern) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
        + params + (modern ? "," + MODERN_META : "") + "}}";
  }

  private static final String STUBBORN_PROMPT = "\"name\":\"stubborn\"";
  private static final String STUBBORN_RESOURCE = "\"uri\":\"guarded://stubborn\"";
  private static final String STUBBORN_COMPLETION = "\"ref\":{\"type\":\"ref/resource\","
      + "\"uri\":\"guarded://stubborn/{part}\"},\"argument\":{\"name\":\"part\",\"value\":\"\"}";

  @Test
  void overHttpAFeaturesTimeoutLeavesWhileItsHandlerStillRuns() throws Exception {
    GuardedFeatures features = new GuardedFeatures();
    FusionServer server = FusionServer.builder("guards", "1").register(features).build();
    try (FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = session(url);

      // The handlers spin until released, and they are released only after every reply came: a
      // reply that waited for its handler would never come (the client gives up after 20 s).
      List<HttpResponse<String>> replies = new ArrayList<>();
      try {
        replies.add(post(url, session, request(2, "prompts/get", STUBBORN_PROMPT, false)));
        replies.add(post(url, session, request(3, "resources/read", STUBBORN_RESOURCE, false)));
        replies.add(post(url, session, request(4, "completion/complete", STUBBORN_COMPLETION, false)));
        replies.add(post(url, null, request(5, "prompts/get", STUBBORN_PROMPT, true)));
        replies.add(post(url, null, request(6, "resources/read", STUBBORN_RESOURCE, true)));
        replies.add(post(url, null, request(7, "completion/complete", STUBBORN_COMPLETION, true)));
        assertThat(features.stubbornReturned.get()).as("no handler has returned").isFalse();
      } finally {
        features.release.countDown();
      }
      for (int i = 0; i < replies.size(); i++) {
        HttpResponse<String> r = replies.get(i);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 2) + ",")
            .contains("\"code\":-32004").contains("code=\\\"TIMEOUT\\\"")
            .doesNotContain("LATE-RESULT");
      }
    }
  }

  @Test
  void overStdioAFeaturesTimeoutLeavesWhileItsHandlerStillRuns() throws Exception {
    GuardedFeatures features = new GuardedFeatures();
    FusionServer server = FusionServer.builder("guards", "1").register(features).build();
    Pipe input = Pipe.open();
    Pipe output = Pipe.open();
    OutputStream toServer = Channels.newOutputStream(input.sink());
    OutputStream serverOut = Channels.newOutputStream(output.sink());
    BufferedReader fromServer = new BufferedReader(new InputStreamReader(
        Channels.newInputStream(output.source()), StandardCharsets.UTF_8));
    StdioTransport transport = new StdioTransport(Channels.newInputStream(input.source()), serverOut,
        server.edge(), Duration.ofSeconds(30));
    Thread serving = new Thread(() -> {
      try {
        transport.serve();
        serverOut.close();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    }, "feature-guards-stdio");
    serving.start();

    String burst = request(1, "prompts/get", STUBBORN_PROMPT, true) + "\n"
        + request(2, "resources/read", STUBBORN_RESOURCE, true) + "\n"
        + request(3, "completion/complete", STUBBORN_COMPLETION, true) + "\n";
    toServer.write(burst.getBytes(StandardCharsets.UTF_8));
    toServer.flush();
    List<String> replies = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        replies.add(fromServer.readLine());
      }
      // Every reply is out while the handlers still spin.
      assertThat(features.stubbornReturned.get()).as("no handler has returned").isFalse();
    } finally {
      features.release.countDown();
      toServer.close();
    }
    serving.join(30_000);

    assertThat(replies).hasSize(3).allSatisfy(r -> assertThat(r).contains("\"code\":-32004")
        .contains("code=\\\"TIMEOUT\\\"").doesNotContain("LATE-RESULT"));
  }
}
