package dev.mcpfusion.redis;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Instances of the {@link Greeter} connector on loopback, each with its own {@link FusionRedis}
 * connection to one Redis, and a plain HTTP client that can send any request to any of them.
 */
final class Fleet implements AutoCloseable {
  static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
      + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":{}},"
      + "\"clientInfo\":{\"name\":\"fleet-test\",\"version\":\"1\"}}}";

  private final List<FusionRedis> connections = new ArrayList<>();
  private final List<FusionHttpServer> servers = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Starts {@code count} instances sharing the Redis at {@code url}. */
  Fleet(String url, int count, RedisSettings settings) {
    this(url, count, settings, options -> options);
  }

  /** Starts {@code count} instances sharing the Redis at {@code url}, with their options changed by {@code tune}. */
  Fleet(String url, int count, RedisSettings settings,
      java.util.function.UnaryOperator<HttpOptions> tune) {
    this(url, count, settings, tune, (redis, builder) -> builder);
  }

  /**
   * Starts {@code count} instances sharing the Redis at {@code url}, each server's builder changed
   * by {@code shape} with the instance's own connection.
   */
  Fleet(String url, int count, RedisSettings settings,
      java.util.function.UnaryOperator<HttpOptions> tune,
      java.util.function.BiFunction<FusionRedis, FusionServer.Builder, FusionServer.Builder> shape) {
    for (int i = 0; i < count; i++) {
      FusionRedis redis = FusionRedis.connect(url, settings);
      connections.add(redis);
      FusionServer server = shape.apply(redis, FusionServer.builder("greeter", "1.0.0")
          .register(new Greeter()).register(new Stepper()).register(new Notes())
          .register(new Holder()).register(new Asker())).build();
      servers.add(FusionHttp.serve(server, tune.apply(HttpOptions.port(0).stopOnShutdownSignal(false)
          .eventStore(redis.eventStore()).sessionStore(redis.sessionStore()))));
    }
  }

  /** The Redis connection of {@code instance}. */
  FusionRedis redis(int instance) {
    return connections.get(instance);
  }

  String url(int instance) {
    return "http://127.0.0.1:" + servers.get(instance).port() + "/mcp";
  }

  HttpResponse<String> post(int instance, String body, String... headers) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url(instance)))
        .timeout(Duration.ofSeconds(20));
    if (headers.length > 0) {
      builder.headers(headers);
    }
    return http.send(builder.header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> delete(int instance, String sessionId) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url(instance))).timeout(Duration.ofSeconds(20))
        .header("Mcp-Session-Id", sessionId).DELETE().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Initialises a session on {@code instance}; its {@code Mcp-Session-Id}. */
  String initialize(int instance) throws Exception {
    HttpResponse<String> response = post(instance, INITIALIZE);
    if (response.statusCode() != 200) {
      throw new AssertionError("initialize answered " + response.statusCode() + ": " + response.body());
    }
    return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  /** The headers of a request on {@code session} that may be answered as an event stream, then {@code more}. */
  static String[] streamHeaders(String session, String... more) {
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(
        "Accept", "application/json, text/event-stream",
        "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25"));
    all.addAll(java.util.List.of(more));
    return all.toArray(String[]::new);
  }

  /** Waits until {@code condition} holds, failing the test naming {@code what} after {@code seconds}. */
  static void await(String what, int seconds, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() >= deadline) {
        throw new AssertionError(what + " within " + seconds + " s");
      }
      Thread.sleep(5);
    }
  }

  static String hello(int id, String name) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
        + "\"name\":\"greeter_hello\",\"arguments\":{\"name\":\"" + name + "\"}}}";
  }

  /**
   * Sends {@code method} with these headers (name, value, …) and {@code body} (may be null) to
   * {@code instance}, the response body left open to read as an event stream.
   */
  Sse stream(int instance, String method, String body, String... headers) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url(instance)))
        .timeout(Duration.ofSeconds(20)).headers(headers);
    builder = body == null ? builder.GET()
        : builder.header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    return new Sse(http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream()));
  }

  /** A response read as server-sent events; closing it cuts the connection. */
  static final class Sse implements AutoCloseable {
    /** One event: its {@code id:} ({@code null} when absent) and {@code data:}. */
    record Event(String id, String data) {}

    final int status;
    private final java.io.BufferedReader body;
    private final java.io.InputStream in;

    Sse(HttpResponse<java.io.InputStream> response) {
      this.status = response.statusCode();
      this.in = response.body();
      this.body = new java.io.BufferedReader(
          new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The next event with data (comments skipped), or {@code null} when the body ended. */
    Event next() throws java.io.IOException {
      String id = null;
      StringBuilder data = null;
      for (String line = body.readLine(); line != null; line = body.readLine()) {
        if (line.isEmpty()) {
          if (data != null) {
            return new Event(id, data.toString());
          }
          id = null;
        } else if (line.startsWith("id:")) {
          id = line.substring(3).trim();
        } else if (line.startsWith("data:")) {
          data = (data == null ? new StringBuilder() : data.append('\n'))
              .append(line.substring(5).trim());
        }
      }
      return null;
    }

    /** The body itself, for a response that is not an event stream. */
    java.io.InputStream in() {
      return in;
    }

    /** Every event until the body ends. */
    List<Event> rest() throws java.io.IOException {
      List<Event> events = new ArrayList<>();
      for (Event event = next(); event != null; event = next()) {
        events.add(event);
      }
      return events;
    }

    @Override
    public void close() throws java.io.IOException {
      in.close();
    }
  }

  @Override
  public void close() {
    for (FusionHttpServer server : servers) {
      server.close();
    }
    for (FusionRedis redis : connections) {
      redis.close();
    }
  }
}
