package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import dev.mcpfusion.http.fixtures.RawHttp;
import dev.mcpfusion.json.Json;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpOptions#requestTimeout}: a call whose handler outlasts it is answered with a clean
 * error carrying its id while the handler still runs, on a connection the client then leaves
 * ({@code Connection: close}), and the session goes on serving; a call answered in time is
 * answered as usual.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RequestTimeoutTest {
  /** How long the slow handler sleeps: far beyond the timeout, so its reply cannot be the one seen. */
  private static final long HANDLER_MILLIS = 30_000;

  private final RawHttp raw = new RawHttp();
  private final Ops.OpsTools tools = new Ops.OpsTools();
  private FusionHttpServer running;

  @AfterEach
  void stop() {
    if (running != null) {
      running.close();
    }
  }

  private URI serve(Duration requestTimeout) {
    FusionServer server = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(tools))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    running = FusionHttp.serve(server, HttpOptions.port(0).stopOnShutdownSignal(false)
        .requestTimeout(requestTimeout).shutdownGrace(Duration.ofMillis(200)));
    return running.endpoint();
  }

  private HttpResponse<String> post(URI endpoint, String session, String body) throws Exception {
    return raw.send(endpoint, session, body);
  }

  private String open(URI endpoint) throws Exception {
    return raw.open(endpoint);
  }

  private static String call(int id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool + "\",\"arguments\":" + arguments + "}}";
  }

  @Test
  void aCallOutlastingTheTimeoutIsAnsweredWhileItsHandlerRunsAndTheSessionGoesOn() throws Exception {
    URI endpoint = serve(Duration.ofMillis(300));
    String session = open(endpoint);

    long before = System.nanoTime();
    HttpResponse<String> late = post(endpoint, session,
        call(7, "ops_slow", "{\"millis\":" + HANDLER_MILLIS + "}"));
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);

    assertThat(tools.slowStarted.getCount()).isZero();
    assertThat(tookMillis).as("answered while the handler still sleeps").isLessThan(HANDLER_MILLIS / 2);
    assertThat(late.statusCode()).isEqualTo(200);
    assertThat(late.headers().firstValue("Connection")).hasValueSatisfying(
        v -> assertThat(v).isEqualToIgnoringCase("close"));
    Map<?, ?> reply = (Map<?, ?>) Json.parse(late.body());
    assertThat(reply.get("id")).isEqualTo(7L);
    assertThat(((Map<?, ?>) reply.get("error")).get("message"))
        .isEqualTo("The request did not complete in time.");
    assertThat(late.body()).doesNotContain("Exception").doesNotContain("dev.mcpfusion");

    HttpResponse<String> next = post(endpoint, session, call(8, "ops_echo", "{\"text\":\"still here\"}"));
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(next.body()).contains("\"id\":8").contains("still here").doesNotContain("\"error\"");
  }

  @Test
  void callsAnsweredInTimeKeepTheirConnectionAndScheduleNoTimerWork() throws Exception {
    URI endpoint = serve(Duration.ofMinutes(5));
    String session = open(endpoint);
    for (int id = 10; id < 60; id++) {
      HttpResponse<String> answered = post(endpoint, session, call(id, "ops_echo", "{\"text\":\"n" + id + "\"}"));
      assertThat(answered.statusCode()).isEqualTo(200);
      assertThat(answered.body()).contains("\"id\":" + id).contains("n" + id);
      assertThat(answered.headers().firstValue("Connection")).isEmpty();
    }
    assertThat(running.servlet().posts().deadlines().scheduled())
        .as("one check waits for the earliest deadline, not one per call").isLessThanOrEqualTo(1);
  }
}
