package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The liveness and readiness probes beside the MCP endpoint: public, terse, never MCP. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HealthProbesTest {
  private final HttpClient http = HttpClient.newHttpClient();

  static FusionServer ops() {
    return FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
  }

  private HttpResponse<String> get(FusionHttpServer running, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.port() + path))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void liveAndReadyAnswerWithTheirStatusOnly() throws Exception {
    try (FusionHttpServer running = FusionHttp.serve(ops(), HttpOptions.port(0).stopOnShutdownSignal(false))) {
      HttpResponse<String> live = get(running, FusionHttp.LIVE_PATH);
      assertThat(live.statusCode()).isEqualTo(200);
      assertThat(live.body()).isEqualTo("{\"status\":\"live\"}");
      assertThat(live.headers().firstValue("Content-Type")).hasValue("application/json");
      assertThat(live.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(live.headers().firstValue("Server")).isEmpty();

      HttpResponse<String> ready = get(running, FusionHttp.READY_PATH);
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).isEqualTo("{\"status\":\"ready\"}");
    }
  }

  @Test
  void probesNeedNoTokenWhileTheMcpEndpointDoes() throws Exception {
    HttpOptions options = HttpOptions.port(0).stopOnShutdownSignal(false)
        .auth(HttpAuthenticator.bearer("s3cret"));
    try (FusionHttpServer running = FusionHttp.serve(ops(), options)) {
      assertThat(get(running, FusionHttp.LIVE_PATH).statusCode()).isEqualTo(200);
      assertThat(get(running, FusionHttp.READY_PATH).statusCode()).isEqualTo(200);
      HttpResponse<String> mcp = http.send(HttpRequest.newBuilder(running.endpoint())
          .header("Content-Type", "application/json")
          .header("Accept", "application/json, text/event-stream")
          .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(mcp.statusCode()).isEqualTo(401);
    }
  }

  @Test
  void aProbeFromAnotherHostIsAnsweredAsAKubeletSendsIt() throws Exception {
    // A kubelet probes http://<pod IP>:<port>/…, so its Host is not one the MCP endpoint allows.
    try (FusionHttpServer running = FusionHttp.serve(ops(), HttpOptions.port(0).stopOnShutdownSignal(false))) {
      assertThat(raw(running, "GET " + FusionHttp.READY_PATH + " HTTP/1.1\r\nHost: 10.1.2.3:8080\r\n"
          + "Connection: close\r\n\r\n")).startsWith("HTTP/1.1 200").endsWith("{\"status\":\"ready\"}");
      assertThat(raw(running, "POST /mcp HTTP/1.1\r\nHost: 10.1.2.3:8080\r\nContent-Type: application/json\r\n"
          + "Content-Length: 2\r\nConnection: close\r\n\r\n{}")).startsWith("HTTP/1.1 403");
    }
  }

  @Test
  void onlyGetAndHeadAreProbes() throws Exception {
    try (FusionHttpServer running = FusionHttp.serve(ops(), HttpOptions.port(0).stopOnShutdownSignal(false))) {
      URI ready = URI.create("http://127.0.0.1:" + running.port() + FusionHttp.READY_PATH);
      HttpResponse<String> head = http.send(HttpRequest.newBuilder(ready)
          .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.body()).isEmpty();
      HttpResponse<String> post = http.send(HttpRequest.newBuilder(ready)
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
      assertThat(post.body()).doesNotContain("status");
    }
  }

  @Test
  void anMcpPathOnAProbesPathIsRefusedWithTheFix() {
    assertThatThrownBy(() -> FusionHttp.serve(ops(),
        HttpOptions.port(0).stopOnShutdownSignal(false).path(FusionHttp.READY_PATH)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'/health/ready' is a health probe's path")
        .hasMessageContaining("such as /mcp");
  }

  private static String raw(FusionHttpServer running, String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", running.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
