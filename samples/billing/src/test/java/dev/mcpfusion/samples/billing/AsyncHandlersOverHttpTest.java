package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.fixtures.AsyncTools;
import dev.mcpfusion.samples.billing.fixtures.HttpWire;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An async action over Streamable HTTP: its handler returns a pending stage and the request's
 * thread goes back to the container; the reply is written when the stage completes, on another
 * thread, as the response to that POST — on a connection the client keeps (nothing was sent while
 * a handler held the thread). In both protocol eras.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncHandlersOverHttpTest {
  private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
      + "\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
  private final HttpWire wire = new HttpWire();

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aStageCompletedAfterTheDispatchReturnedIsTheResponseToItsPost(boolean modern) throws Exception {
    AsyncTools tools = new AsyncTools();
    FusionServer server = FusionServer.builder("later", "1").register(tools).build();
    try (FusionHttpServer running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false))) {
      String url = "http://127.0.0.1:" + running.port() + "/mcp";
      String session = modern ? null : wire.session(url);
      String body = "{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"tools/call\",\"params\":{\"name\":"
          + "\"later_read\",\"arguments\":{\"id\":\"n-31\"}" + (modern ? "," + MODERN_META : "") + "}}";
      CompletableFuture<HttpResponse<String>> pending = CompletableFuture.supplyAsync(() -> {
        try {
          return wire.post(url, session, body);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });

      CompletableFuture<AsyncTools.Note> stage = tools.future("n-31");
      assertThat(pending).as("no reply before the stage completes").isNotDone();
      stage.complete(new AsyncTools.Note("n-31", "text of n-31", "s3cr3t-31"));
      HttpResponse<String> reply = pending.get(20, TimeUnit.SECONDS);

      assertThat(reply.statusCode()).isEqualTo(200);
      assertThat(reply.body()).startsWith("{\"jsonrpc\":\"2.0\",\"id\":31,\"result\":")
          .contains("text of n-31").doesNotContain("s3cr3t").doesNotContain("\"error\"");
      assertThat(reply.headers().firstValue("Connection")).isEmpty();
    }
  }
}
