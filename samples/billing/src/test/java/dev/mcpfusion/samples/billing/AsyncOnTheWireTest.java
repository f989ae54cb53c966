package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.fixtures.AsyncTools;
import dev.mcpfusion.samples.billing.fixtures.AsyncTools.Note;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An async handler's reply on real transports: it is written when the stage completes, after the
 * dispatch that ran the handler has returned — over Streamable HTTP, stateless HTTP and stdio.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncOnTheWireTest {
  private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
      + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
  private final HttpWire wire = new HttpWire();

  private static String call(Object id, String note, boolean modern) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
        + "\"later_read\",\"arguments\":{\"id\":\"" + note + "\"}" + (modern ? "," + MODERN_META : "")
        + "}}";
  }

  private CompletableFuture<HttpResponse<String>> postLater(String url, String session, String body) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return wire.post(url, session, body);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void overHttpTheReplyIsWrittenWhenTheStageCompletesInBothEras() throws Exception {
    AsyncTools tools = new AsyncTools();
    FusionServer server = FusionServer.builder("later", "1").register(tools).build();
    try (FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = wire.session(url);
      CompletableFuture<HttpResponse<String>> classic = postLater(url, session, call(2, "h-1", false));
      CompletableFuture<HttpResponse<String>> modern = postLater(url, null, call(3, "h-2", true));
      tools.future("h-1");
      tools.future("h-2");
      assertThat(classic).isNotDone();
      assertThat(modern).isNotDone();

      tools.future("h-1").complete(new Note("h-1", "classic text", "s3cr3t"));
      tools.future("h-2").complete(new Note("h-2", "modern text", "s3cr3t"));
      HttpResponse<String> c = classic.get(20, TimeUnit.SECONDS);
      HttpResponse<String> m = modern.get(20, TimeUnit.SECONDS);
      assertThat(c.statusCode()).isEqualTo(200);
      assertThat(c.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":")
          .contains("classic text").doesNotContain("s3cr3t");
      assertThat(m.statusCode()).isEqualTo(200);
      assertThat(m.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":")
          .contains("modern text").doesNotContain("s3cr3t");
    }
  }

  @Test
  void overStdioTheReplyIsWrittenWhenTheStageCompletesAndTheEndOfInputWaitsForIt() throws Exception {
    AsyncTools tools = new AsyncTools();
    FusionServer server = FusionServer.builder("later", "1").register(tools).build();
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
    }, "later-stdio");
    serving.start();

    toServer.write((call(1, "s-1", true) + "\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
    tools.future("s-1");
    // The input ends while the call is pending: the transport still waits for its reply.
    toServer.close();
    Thread.sleep(100);
    assertThat(serving.isAlive()).isTrue();
    tools.future("s-1").complete(new Note("s-1", "stdio text", "s3cr3t"));

    String reply = fromServer.readLine();
    serving.join(30_000);
    assertThat(reply).startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":")
        .contains("stdio text").doesNotContain("s3cr3t");
    assertThat(serving.isAlive()).isFalse();
  }
}
