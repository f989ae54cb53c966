package dev.mcpfusion.maven;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

/**
 * A local stand-in for the upstream API: a real JDK HTTP server on loopback (an ephemeral port)
 * that answers each {@code "METHOD /path?query"} with a canned status and JSON body, and records
 * every request it receives (method, path with query, body, headers).
 */
final class StubApi implements AutoCloseable {
  /** One request as the server received it. */
  record Received(String method, String target, String body, Map<String, List<String>> headers) {
    String line() {
      return method + " " + target;
    }
  }

  private record Answer(int status, String body) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();

  StubApi() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", exchange -> {
      String target = exchange.getRequestURI().getRawPath()
          + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      received.add(new Received(exchange.getRequestMethod(), target, body, Map.copyOf(exchange.getRequestHeaders())));
      Answer answer = answers.getOrDefault(exchange.getRequestMethod() + " " + target,
          new Answer(404, "{\"message\":\"no stub for this request\"}"));
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
  }

  /** Answers {@code "METHOD /path?query"} with {@code status} and {@code json}. */
  StubApi answer(String request, int status, String json) {
    answers.put(request, new Answer(status, json));
    return this;
  }

  int port() {
    return server.getAddress().getPort();
  }

  String host() {
    return server.getAddress().getAddress().getHostAddress();
  }

  List<Received> received() {
    return List.copyOf(received);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
