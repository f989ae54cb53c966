package dev.mcpfusion.samples.billing;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import dev.mcpfusion.samples.billing.store.InvoiceStore;

/**
 * Runs the billing connector: over stdio by default ({@code java -jar fusion-sample-billing.jar
 * [--grouped]}), or over Streamable HTTP on 127.0.0.1 with {@code --http PORT} (endpoint
 * {@code http://127.0.0.1:PORT/mcp}; SIGTERM stops it gracefully). stdout carries the stdio
 * protocol alone; everything else goes to stderr. {@code FUSION_TRACE=logging} logs a span per
 * request to stderr; {@code --metrics PORT} serves the MCP metrics as Prometheus text at
 * {@code http://127.0.0.1:PORT/metrics} ({@link BillingMetrics}).
 */
public final class BillingMain {
  private static final String USAGE =
      "Usage: java -jar fusion-sample-billing.jar [--grouped | --flat] [--http PORT] [--metrics PORT]";

  private BillingMain() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    Exposition exposition = Exposition.FLAT;
    Integer httpPort = null;
    Integer metricsPort = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--grouped" -> exposition = Exposition.GROUPED;
        case "--flat" -> exposition = Exposition.FLAT;
        case "--http" -> {
          if (i + 1 >= args.length || !args[i + 1].matches("\\d{1,5}")
              || Integer.parseInt(args[i + 1]) > 65535) {
            fail("--http needs a port number between 0 and 65535.");
          }
          httpPort = Integer.parseInt(args[++i]);
        }
        case "--metrics" -> {
          if (i + 1 >= args.length || !args[i + 1].matches("\\d{1,5}")
              || Integer.parseInt(args[i + 1]) > 65535) {
            fail("--metrics needs a port number between 0 and 65535.");
          }
          metricsPort = Integer.parseInt(args[++i]);
        }
        default -> fail("Unknown option '" + args[i] + "'.");
      }
    }
    FusionServer.Builder builder = BillingConnector.builder(InvoiceStore.sample(), exposition)
        .tracer(BillingTracing.fromEnvironment());
    if (metricsPort != null) {
      BillingMetrics metrics = BillingMetrics.serve(metricsPort);
      builder.meter(metrics.meter());
      System.err.println("billing metrics at " + metrics.endpoint());
    }
    FusionServer server = builder.build();
    if (httpPort == null) {
      server.serveStdio();
      return;
    }
    FusionHttpServer http = FusionHttp.serve(server, HttpOptions.port(httpPort));
    System.err.println("billing MCP server listening on " + http.endpoint());
    http.join();
  }

  private static void fail(String message) {
    System.err.println(message + " " + USAGE);
    System.exit(2);
  }
}
