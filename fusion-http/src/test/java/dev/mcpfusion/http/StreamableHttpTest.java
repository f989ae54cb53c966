package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.http.fixtures.Ops;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Streamable HTTP end to end on loopback: a real SDK client, raw requests for the hardened edge. */
class StreamableHttpTest {
  private static final Pattern QUALIFIED_CLASS = Pattern.compile("[a-z]+(\\.[a-z0-9_]+)+\\.[A-Z]\\w*");
  private static final Pattern STACK_FRAME = Pattern.compile("\\bat [\\w$.]+\\(");
  private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<FusionHttpServer> started = new ArrayList<>();
  private Ops.OpsTools tools;

  @AfterEach
  void stopServers() {
    started.forEach(FusionHttpServer::close);
  }

  private FusionHttpServer start(HttpOptions options) {
    tools = new Ops.OpsTools();
    FusionServer server = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(tools))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    FusionHttpServer running = FusionHttp.serve(server, options.stopOnShutdownSignal(false));
    started.add(running);
    return running;
  }

  private FusionHttpServer start() {
    return start(HttpOptions.port(0));
  }

  @Test
  void realSdkClientInitializesListsAndCalls() {
    FusionHttpServer server = start();
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
        .builder("http://127.0.0.1:" + server.port())
        .endpoint("/mcp")
        .requestBuilder(HttpRequest.newBuilder().header("X-Tenant", "t_42"))
        .build();
    try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build()) {
      McpSchema.InitializeResult init = client.initialize();
      assertThat(init.serverInfo().name()).isEqualTo("ops");

      List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
      assertThat(names).containsExactly("ops_echo", "ops_whoami", "ops_slow", "ops_meet");

      McpSchema.CallToolResult echo = client.callTool(new McpSchema.CallToolRequest("ops_echo", Map.of("text", "hi")));
      assertThat(echo.isError()).isNotEqualTo(Boolean.TRUE);
      assertThat(((McpSchema.TextContent) echo.content().get(0)).text()).isEqualTo("hi");
      assertThat(echo.structuredContent()).isEqualTo(Map.of("result", "hi"));

      McpSchema.CallToolResult who = client.callTool(new McpSchema.CallToolRequest("ops_whoami", Map.of()));
      assertThat(((McpSchema.TextContent) who.content().get(0)).text()).isEqualTo("tenant=t_42 protocol=2025-11-25");
    }
  }

  @Test
  void headersReachTheRequestContext() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    HttpResponse<String> response = post(server, session, call(7, "ops_whoami", "{}"), "X-Tenant", "t_7");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("tenant=t_7 protocol=2025-06-18");
  }

  @Test
  void foreignOriginIsForbiddenAndLoopbackOriginIsAllowed() throws Exception {
    FusionHttpServer server = start();
    HttpResponse<String> foreign = send(server, "POST", INIT, null, "Origin", "http://evil.example");
    assertThat(foreign.statusCode()).isEqualTo(403);
    assertClean(foreign);

    HttpResponse<String> loopback = send(server, "POST", INIT, null, "Origin", "http://localhost:" + server.port());
    assertThat(loopback.statusCode()).isEqualTo(200);
    assertThat(loopback.headers().firstValue("Access-Control-Allow-Origin"))
        .contains("http://localhost:" + server.port());

    FusionHttpServer configured = start(HttpOptions.port(0).allowedOrigins("https://app.example"));
    assertThat(send(configured, "POST", INIT, null, "Origin", "https://app.example").statusCode()).isEqualTo(200);
    assertThat(send(configured, "POST", INIT, null, "Origin", "https://app.example.evil").statusCode()).isEqualTo(403);
  }

  @Test
  void badHostIsRejectedWithoutAServerBanner() throws Exception {
    FusionHttpServer server = start();
    RawResponse bad = raw(server, "POST /mcp HTTP/1.1\r\nHost: evil.example:" + server.port()
        + "\r\nContent-Type: application/json\r\nContent-Length: " + INIT.length()
        + "\r\nConnection: close\r\n\r\n" + INIT);
    assertThat(bad.status()).isBetween(400, 499);
    assertRawClean(bad);

    RawResponse wrongPort = raw(server, "POST /mcp HTTP/1.1\r\nHost: localhost:1\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + INIT.length() + "\r\nConnection: close\r\n\r\n" + INIT);
    assertThat(wrongPort.status()).isBetween(400, 499);

    RawResponse good = raw(server, "POST /mcp HTTP/1.1\r\nHost: localhost:" + server.port()
        + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: "
        + INIT.length() + "\r\nConnection: close\r\n\r\n" + INIT);
    assertThat(good.status()).isEqualTo(200);
    assertThat(good.head().toLowerCase()).doesNotContain("\nserver:");

    FusionHttpServer configured = start(HttpOptions.port(0).allowedHosts("mcp.example"));
    RawResponse listed = raw(configured, "POST /mcp HTTP/1.1\r\nHost: mcp.example\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + INIT.length() + "\r\nConnection: close\r\n\r\n" + INIT);
    assertThat(listed.status()).isEqualTo(200);
  }

  @Test
  void bodyOverTheCapIs413() throws Exception {
    FusionHttpServer server = start(HttpOptions.port(0).maxBodyBytes(1024));
    String session = openSession(server);
    String big = call(2, "ops_echo", "{\"text\":\"" + "x".repeat(2000) + "\"}");
    HttpResponse<String> response = post(server, session, big);
    assertThat(response.statusCode()).isEqualTo(413);
    assertClean(response);
    assertThat(post(server, session, call(3, "ops_echo", "{\"text\":\"small\"}")).body()).contains("small");
  }

  @Test
  void malformedJsonIs400ParseErrorAndTheSessionGoesOn() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    HttpResponse<String> response = post(server, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(Json.parse(response.body())).isEqualTo(Json.parse(
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: the message is not valid JSON.\"}}"));
    assertClean(response);

    HttpResponse<String> next = post(server, session, call(6, "ops_echo", "{\"text\":\"still here\"}"));
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(next.body()).contains("still here").contains("\"id\":6");
  }

  @Test
  void unknownToolIsAnsweredByTheEdge() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    HttpResponse<String> response = post(server, session, call(9, "refund_all", "{}"));
    assertThat(response.statusCode()).isEqualTo(200);
    @SuppressWarnings("unchecked")
    Map<String, Object> body = (Map<String, Object>) Json.parse(response.body());
    @SuppressWarnings("unchecked")
    Map<String, Object> error = (Map<String, Object>) body.get("error");
    assertThat(body.get("id")).isEqualTo(9L);
    assertThat(((Number) error.get("code")).intValue()).isEqualTo(-32602);
    assertThat((String) error.get("message")).isEqualTo("<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n"
        + "<message>The tool \"refund_all\" does not exist.</message>\n"
        + "<recovery>Choose one of the available tools and call it again.</recovery>\n"
        + "<available_tools>\n  <tool>ops_echo</tool>\n  <tool>ops_whoami</tool>\n  <tool>ops_slow</tool>\n  <tool>ops_meet</tool>\n"
        + "</available_tools>\n</tool_error>");
    assertThat(error.get("data")).isEqualTo(Map.of("code", "UNKNOWN_TOOL",
        "available", List.of("ops_echo", "ops_whoami", "ops_slow", "ops_meet")));
    assertClean(response);
  }

  @Test
  void unsupportedProtocolVersionIs400() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    HttpResponse<String> response = send(server, "POST", call(4, "ops_echo", "{\"text\":\"a\"}"), session,
        "MCP-Protocol-Version", "1999-01-01");
    assertThat(response.statusCode()).isEqualTo(400);
    assertClean(response);
    HttpResponse<String> supported = send(server, "POST", call(4, "ops_echo", "{\"text\":\"a\"}"), session,
        "MCP-Protocol-Version", "2025-06-18");
    assertThat(supported.statusCode()).isEqualTo(200);
  }

  @Test
  void clientMistakesAre4xxWithCleanBodies() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    List<HttpResponse<String>> mistakes = new ArrayList<>();

    HttpResponse<String> batch = post(server, session, "[" + call(1, "ops_echo", "{\"text\":\"a\"}") + "]");
    assertThat(batch.statusCode()).isEqualTo(400);
    assertThat(batch.body()).contains("-32600");
    mistakes.add(batch);

    HttpResponse<String> scalar = post(server, session, "42");
    assertThat(scalar.statusCode()).isEqualTo(400);
    mistakes.add(scalar);

    HttpResponse<String> notJsonRpc = post(server, session, "{\"id\":3,\"method\":7}");
    assertThat(notJsonRpc.statusCode()).isEqualTo(400);
    assertThat(notJsonRpc.body()).contains("\"id\":3").contains("-32600");
    mistakes.add(notJsonRpc);

    HttpResponse<String> objectId = post(server, session, "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}");
    assertThat(objectId.statusCode()).isEqualTo(400);
    assertThat(objectId.body()).contains("\"id\":null").contains("-32600");
    mistakes.add(objectId);

    HttpResponse<String> deep = post(server, session, "[".repeat(100_000) + "]".repeat(100_000));
    assertThat(deep.statusCode()).isEqualTo(400);
    assertThat(deep.body()).contains("-32700");
    mistakes.add(deep);

    HttpResponse<String> badUtf8 = http.send(request(server, session).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'}))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(badUtf8.statusCode()).isEqualTo(400);
    mistakes.add(badUtf8);

    HttpResponse<String> noSession = send(server, "POST", call(1, "ops_echo", "{\"text\":\"a\"}"), null);
    assertThat(noSession.statusCode()).isEqualTo(400);
    mistakes.add(noSession);

    HttpResponse<String> unknownSession = post(server, "no-such-session", call(1, "ops_echo", "{\"text\":\"a\"}"));
    assertThat(unknownSession.statusCode()).isEqualTo(404);
    mistakes.add(unknownSession);

    HttpResponse<String> textPlain = http.send(request(server, session)
        .header("Content-Type", "text/plain")
        .POST(HttpRequest.BodyPublishers.ofString(call(1, "ops_echo", "{}"))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(textPlain.statusCode()).isEqualTo(415);
    mistakes.add(textPlain);

    HttpResponse<String> put = http.send(request(server, session)
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(put.statusCode()).isEqualTo(405);
    mistakes.add(put);

    HttpResponse<String> elsewhere = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/admin")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(elsewhere.statusCode()).isEqualTo(404);
    mistakes.add(elsewhere);

    HttpResponse<String> invalidParams = post(server, session,
        "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":7}}");
    assertThat(invalidParams.statusCode()).isBetween(200, 499);
    mistakes.add(invalidParams);

    HttpResponse<String> badParams = post(server, session,
        "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"logging/setLevel\",\"params\":{\"level\":[1,2]}}");
    // The edge keeps the log level (handlers log through it), so it checks the level itself and
    // names the valid ones (the SDK would answer -32603 with Jackson's exception text).
    assertThat(Json.parse(badParams.body())).isEqualTo(Json.parse(
        "{\"jsonrpc\":\"2.0\",\"id\":14,\"error\":{\"code\":-32602,\"message\":\"Invalid params: "
            + "\\\"level\\\" must be one of debug, info, notice, warning, error, critical, alert, emergency.\"}}"));
    mistakes.add(badParams);

    HttpResponse<String> unknownMethod = post(server, session,
        "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"no/such\",\"params\":{}}");
    assertThat(unknownMethod.body()).contains("-32601");
    mistakes.add(unknownMethod);

    for (HttpResponse<String> mistake : mistakes) {
      assertThat(mistake.statusCode()).as(mistake.body()).isLessThan(500);
      assertClean(mistake);
    }
    assertThat(post(server, session, call(13, "ops_echo", "{\"text\":\"fine\"}")).body()).contains("fine");
  }

  @Test
  void containerLevelErrorsAreClean() throws Exception {
    FusionHttpServer server = start();
    RawResponse garbage = raw(server, "GARBAGE / NOT-HTTP\r\n\r\n");
    assertThat(garbage.status()).isBetween(400, 499);
    assertRawClean(garbage);

    RawResponse noColon = raw(server, "GET /mcp HTTP/1.1\r\nHost: localhost\r\nNot a header\r\n\r\n");
    assertThat(noColon.status()).isBetween(400, 499);
    assertRawClean(noColon);

    RawResponse hugeHeader = raw(server, "GET /mcp HTTP/1.1\r\nHost: localhost:" + server.port()
        + "\r\nX-Big: " + "a".repeat(64 * 1024) + "\r\nConnection: close\r\n\r\n");
    assertThat(hugeHeader.status()).isBetween(400, 499);
    assertRawClean(hugeHeader);

    RawResponse noHost = raw(server, "POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    assertThat(noHost.status()).isBetween(400, 499);
    assertRawClean(noHost);
  }

  @Test
  void authHookRejectionIsAClean401() throws Exception {
    FusionHttpServer server = start(HttpOptions.port(0).auth(HttpAuthenticator.bearer("s3cret")));
    HttpResponse<String> anonymous = send(server, "POST", INIT, null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer");
    assertClean(anonymous);
    assertThat(send(server, "POST", INIT, null, "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
    assertThat(send(server, "POST", INIT, null, "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);
  }

  @Test
  void eventStreamSendsItsHeadersAtOnceAndEndsOnDelete() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    HttpResponse<InputStream> stream = http.sendAsync(request(server, session)
        .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream())
        .get(5, TimeUnit.SECONDS);
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));

    server.servlet().sessions().notifyAll("notifications/message",
        Map.of("level", "info", "data", "hello stream"));
    java.io.BufferedReader lines = new java.io.BufferedReader(
        new java.io.InputStreamReader(stream.body(), StandardCharsets.UTF_8));
    assertThat(lines.readLine()).isEqualTo("event: message");
    // The event's id: the session's tag, stream 0 (the GET stream), its first event.
    assertThat(lines.readLine()).matches("id: [0-9a-z]{8}\\.0-1");
    String data = lines.readLine();
    assertThat(data).startsWith("data: ");
    assertThat(Json.parse(data.substring(6))).isEqualTo(Json.parse(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hello stream\"}}"));
    assertThat(lines.readLine()).isEmpty();

    HttpResponse<String> delete = http.send(request(server, session).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).isEqualTo(204);
    CompletableFuture<Integer> end = CompletableFuture.supplyAsync(() -> {
      try (java.io.BufferedReader in = lines) {
        return in.read();
      } catch (IOException e) {
        return -2;
      }
    });
    assertThat(end.get(5, TimeUnit.SECONDS)).isLessThan(0);
    assertThat(post(server, session, call(1, "ops_echo", "{\"text\":\"a\"}")).statusCode()).isEqualTo(404);
  }

  @Test
  void gracefulShutdownLetsASlowCallFinish() throws Exception {
    FusionHttpServer server = start(HttpOptions.port(0).shutdownGrace(Duration.ofSeconds(10)));
    String session = openSession(server);
    CompletableFuture<HttpResponse<String>> slow = http.sendAsync(request(server, session)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(call(21, "ops_slow", "{\"millis\":1500}"))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(tools.slowStarted.await(10, TimeUnit.SECONDS)).isTrue();

    long before = System.nanoTime();
    server.close();
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);

    HttpResponse<String> answered = slow.get(1, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).isEqualTo(200);
    assertThat(answered.body()).contains("slept 1500").contains("\"id\":21");
    assertThat(tookMillis).isLessThan(10_000);
    assertThat(server.isRunning()).isFalse();
  }

  @Test
  void shutdownGraceBoundsTheWait() throws Exception {
    FusionHttpServer server = start(HttpOptions.port(0).shutdownGrace(Duration.ofMillis(300)));
    String session = openSession(server);
    http.sendAsync(request(server, session)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(call(22, "ops_slow", "{\"millis\":20000}"))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(tools.slowStarted.await(10, TimeUnit.SECONDS)).isTrue();
    long before = System.nanoTime();
    server.close();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before)).isLessThan(8_000);
  }

  @Test
  void sixteenCallsInOneSessionRunAtTheSameTime() throws Exception {
    FusionHttpServer server = start();
    String session = openSession(server);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      calls.add(http.sendAsync(request(server, session)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(call(100 + i, "ops_meet", "{\"who\":\"c" + i + "\"}"))).build(),
          HttpResponse.BodyHandlers.ofString()));
    }
    for (int i = 0; i < 16; i++) {
      HttpResponse<String> response = calls.get(i).get(40, TimeUnit.SECONDS);
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).contains("\"id\":" + (100 + i)).contains("met c" + i + "\"");
    }
  }

  @Test
  void idleSessionsExpire() throws Exception {
    // Long enough that a loaded machine (CI beside other builds) opens a session within it.
    FusionHttpServer server = start(HttpOptions.port(0).sessionIdleTimeout(Duration.ofSeconds(2)));
    String first = openSession(server);
    assertThat(post(server, first, call(1, "ops_echo", "{\"text\":\"a\"}")).statusCode()).isEqualTo(200);
    Thread.sleep(4_000);
    openSession(server);
    HttpResponse<String> expired = post(server, first, call(2, "ops_echo", "{\"text\":\"a\"}"));
    assertThat(expired.statusCode()).isEqualTo(404);
    assertClean(expired);
  }

  // ---- helpers ----

  private static String call(int id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":" + arguments + "}}";
  }

  private String openSession(FusionHttpServer server) throws Exception {
    HttpResponse<String> init = send(server, "POST", INIT, null);
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    HttpResponse<String> initialized = post(server, session,
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assertThat(initialized.statusCode()).isEqualTo(202);
    return session;
  }

  private HttpRequest.Builder request(FusionHttpServer server, String session) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(server.endpoint())
        .timeout(Duration.ofSeconds(30))
        .header("Accept", "application/json, text/event-stream");
    if (session != null) {
      builder.header("Mcp-Session-Id", session);
    }
    return builder;
  }

  private HttpResponse<String> post(FusionHttpServer server, String session, String body, String... headers)
      throws Exception {
    return send(server, "POST", body, session, headers);
  }

  private HttpResponse<String> send(FusionHttpServer server, String method, String body, String session,
      String... headers) throws Exception {
    HttpRequest.Builder builder = request(server, session).header("Content-Type", "application/json");
    for (int i = 0; i < headers.length; i += 2) {
      builder.header(headers[i], headers[i + 1]);
    }
    builder.method(method, HttpRequest.BodyPublishers.ofString(body));
    return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  private record RawResponse(int status, String head, String body) {}

  private static RawResponse raw(FusionHttpServer server, String request) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      int n;
      try {
        while ((n = in.read(buffer)) > 0) {
          all.write(buffer, 0, n);
        }
      } catch (java.net.SocketTimeoutException e) {
        // Keep what arrived; the server kept the connection open.
      }
      String text = all.toString(StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String body = split < 0 ? "" : text.substring(split + 4);
      int status = Integer.parseInt(head.split(" ")[1]);
      return new RawResponse(status, head, body);
    }
  }

  private static void assertRawClean(RawResponse response) {
    assertThat(response.head().toLowerCase()).doesNotContain("\nserver:").doesNotContain("jetty");
    assertNoLeak(response.body());
  }

  private static void assertClean(HttpResponse<String> response) {
    assertThat(response.headers().firstValue("Server")).isEmpty();
    assertThat(response.headers().map().toString()).doesNotContainIgnoringCase("jetty");
    assertNoLeak(response.body());
  }

  private static void assertNoLeak(String body) {
    assertThat(body).doesNotContain("stackTrace").doesNotContain("className")
        .doesNotContain("localizedMessage").doesNotContain("suppressed")
        .doesNotContain("Exception").doesNotContain("at java.").doesNotContain("at dev.")
        .doesNotContainIgnoringCase("jetty");
    assertThat(QUALIFIED_CLASS.matcher(body).find()).as("qualified class name in %s", body).isFalse();
    assertThat(STACK_FRAME.matcher(body).find()).as("stack frame in %s", body).isFalse();
    if (!body.isEmpty()) {
      Object parsed = Json.parse(body);
      assertThat(parsed).as(body).isInstanceOf(Map.class);
    }
  }
}
