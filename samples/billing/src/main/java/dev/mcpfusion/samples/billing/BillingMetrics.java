package dev.mcpfusion.samples.billing;

import com.sun.net.httpserver.HttpServer;
import dev.mcpfusion.core.trace.FusionMeter;
import dev.mcpfusion.micrometer.MicrometerFusionMeter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The sample's Prometheus endpoint ({@code --metrics PORT}): the MCP server metrics as Prometheus
 * text at {@code http://127.0.0.1:PORT/metrics}, through Micrometer's Prometheus registry and
 * {@code fusion-micrometer} — no OpenTelemetry SDK needed. A port of its own, so that a scraper
 * never shares the MCP endpoint's connections, limits or authentication.
 */
public final class BillingMetrics implements AutoCloseable {
  /** The media type of Prometheus text exposition 0.0.4. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry;
  private final HttpServer http;

  private BillingMetrics(PrometheusMeterRegistry registry, HttpServer http) {
    this.registry = registry;
    this.http = http;
  }

  /** Serves {@code /metrics} on loopback {@code port} (0: any free port). */
  public static BillingMetrics serve(int port) throws IOException {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    http.createContext("/metrics", exchange -> {
      try (exchange) {
        if (!"GET".equals(exchange.getRequestMethod())) {
          exchange.getResponseHeaders().add("Allow", "GET");
          exchange.sendResponseHeaders(405, -1);
          return;
        }
        byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", CONTENT_TYPE);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    });
    http.start();
    return new BillingMetrics(registry, http);
  }

  /** The meter to build the server with. */
  public FusionMeter meter() {
    return MicrometerFusionMeter.of(registry);
  }

  /** Where the metrics are read. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/metrics");
  }

  @Override
  public void close() {
    http.stop(0);
  }
}
