package dev.mcpfusion.framework.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.annotation.Describe;
import dev.mcpfusion.annotation.Invalidates;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Router;
import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.Authentication;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpAuthenticator;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.McpHeaders;
import dev.mcpfusion.wire.Meta;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
 * A {@code subscriptions/listen} stream honours only the resources its caller may read: a URI whose
 * {@code @Scopes} the caller lacks is left out of the acknowledgement and never announced on the
 * stream, while a caller that holds them hears of both.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenScopesHttpTest {
  private static final Map<String, Object> META = Map.of(Meta.PROTOCOL_VERSION, "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities", Map.of());
  private static final List<String> BOTH = List.of("ledger://balance", "ledger://audit");

  /** A mutation that marks the ledger's resources stale, open to every caller. */
  @Router(value = "clerk", description = "Posts to the ledger")
  public static final class Clerk {
    @Mutation(description = "Post an entry")
    @Invalidates("ledger.*")
    public String post(@Describe("The entry") String entry) {
      return "posted " + entry;
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();
  private final List<Stream<String>> streams = new ArrayList<>();
  private FusionHttpServer running;

  @AfterEach
  void stop() {
    streams.forEach(Stream::close);
    if (running != null) {
      running.close();
    }
  }

  /** The caller's scopes come from the {@code x-scopes} header (comma-separated). */
  private static final HttpAuthenticator BY_HEADER = new HttpAuthenticator() {
    @Override
    public boolean authenticate(Map<String, String> headers) {
      return true;
    }

    @Override
    public Authentication verify(Map<String, String> headers) {
      String scopes = headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase("x-scopes")).map(Map.Entry::getValue)
          .findFirst().orElse("");
      return Authentication.accepted(Caller.of("alice", Arrays.asList(scopes.split(","))));
    }
  };

  private HttpRequest.Builder post(String url, String method, String scopes, Map<String, Object> params) {
    Map<String, Object> all = new LinkedHashMap<>(params);
    all.put("_meta", META);
    return HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header(McpHeaders.PROTOCOL_VERSION, "2026-07-28")
        .header(McpHeaders.METHOD, method)
        .header("x-scopes", scopes)
        .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("jsonrpc", "2.0", "id", 1,
            "method", method, "params", all))));
  }

  private BlockingQueue<Object> listen(String url, String scopes) throws Exception {
    HttpResponse<Stream<String>> response = http.sendAsync(post(url, JsonRpc.SUBSCRIPTIONS_LISTEN,
        scopes, Map.of("notifications", Map.of("resourceSubscriptions", BOTH))).build(),
        HttpResponse.BodyHandlers.ofLines()).get(20, TimeUnit.SECONDS);
    streams.add(response.body());
    BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try {
        response.body().filter(line -> line.startsWith("data:"))
            .forEach(line -> messages.add(Json.parse(line.substring(5).trim())));
      } catch (RuntimeException closed) {
        // The test closed the stream.
      }
    });
    reader.setDaemon(true);
    reader.start();
    return messages;
  }

  private static Object acknowledgedUris(Object ack) {
    Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) ack).get("params");
    return ((Map<?, ?>) params.get("notifications")).get("resourceSubscriptions");
  }

  private static Object updatedUri(Object message) {
    assertThat(((Map<?, ?>) message).get("method")).isEqualTo(JsonRpc.RESOURCE_UPDATED);
    return ((Map<?, ?>) ((Map<?, ?>) message).get("params")).get("uri");
  }

  @Test
  void aCallerHearsOnlyOfTheResourcesItMayRead() throws Exception {
    FusionServer server = FusionServer.builder("ledger", "1.0.0")
        .register(new LedgerTools.Ledger())
        .register(new Clerk())
        .listenStreams(4, Duration.ofMillis(50))
        .build();
    running = FusionHttp.serve(server, HttpOptions.port(0).auth(BY_HEADER).stopOnShutdownSignal(false));
    String url = "http://127.0.0.1:" + running.port() + "/mcp";

    BlockingQueue<Object> reader = listen(url, "ledger:read");
    assertThat(acknowledgedUris(reader.poll(10, TimeUnit.SECONDS))).isEqualTo(List.of("ledger://balance"));
    BlockingQueue<Object> auditor = listen(url, "ledger:read,ledger:audit");
    assertThat(acknowledgedUris(auditor.poll(10, TimeUnit.SECONDS))).isEqualTo(BOTH);

    HttpResponse<String> posted = http.send(post(url, JsonRpc.TOOLS_CALL, "",
        Map.of("name", "clerk_post", "arguments", Map.of("entry", "rent")))
        .header(McpHeaders.NAME, "clerk_post").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(posted.body()).contains("posted rent");

    assertThat(updatedUri(reader.poll(10, TimeUnit.SECONDS))).isEqualTo("ledger://balance");
    assertThat(reader.poll(300, TimeUnit.MILLISECONDS)).as("the audit trail, unreadable").isNull();
    List<Object> heard = new ArrayList<>();
    heard.add(updatedUri(auditor.poll(10, TimeUnit.SECONDS)));
    heard.add(updatedUri(auditor.poll(10, TimeUnit.SECONDS)));
    assertThat(heard).containsExactlyInAnyOrderElementsOf(BOTH);
  }
}
