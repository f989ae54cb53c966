package dev.mcpfusion.outbound;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A test's HTTP listener on a loopback address: counts the requests that reach it. */
final class Listener implements AutoCloseable {
  /** What the listener answers. */
  @FunctionalInterface
  interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final AtomicInteger hits = new AtomicInteger();
  private final List<String> hosts = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private Listener(HttpServer server) {
    this.server = server;
  }

  static Listener on(String address, int port, Handler handler) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 16);
      Listener listener = new Listener(server);
      server.createContext("/", exchange -> {
        listener.hits.incrementAndGet();
        listener.hosts.add(String.valueOf(exchange.getRequestHeaders().getFirst("Host")));
        listener.authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        listener.requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
            + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        try {
          handler.handle(exchange);
        } finally {
          exchange.close();
        }
      });
      server.setExecutor(Executors.newCachedThreadPool());
      server.start();
      return listener;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Listener on(String address, Handler handler) {
    return on(address, 0, handler);
  }

  /** A listener answering {@code status} with {@code body} as JSON. */
  static Handler answering(int status, String body) {
    return exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    };
  }

  /** A listener redirecting to {@code location}. */
  static Handler redirectingTo(int status, String location) {
    return exchange -> {
      exchange.getResponseHeaders().add("Location", location);
      exchange.sendResponseHeaders(status, -1);
    };
  }

  int port() {
    return server.getAddress().getPort();
  }

  String address() {
    return server.getAddress().getAddress().getHostAddress();
  }

  int hits() {
    return hits.get();
  }

  List<String> hosts() {
    return List.copyOf(hosts);
  }

  List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  List<String> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
