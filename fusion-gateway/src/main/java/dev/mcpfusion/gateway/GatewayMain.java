package dev.mcpfusion.gateway;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs a gateway from its config file: {@code java -jar fusion-gateway.jar --config gateway.yaml}
 * serves over stdio; {@code --http PORT} serves Streamable HTTP on 127.0.0.1 (endpoint
 * {@code http://127.0.0.1:PORT/mcp}; port 0 picks a free one, printed on stderr). stdout carries
 * the stdio protocol alone; everything else goes to stderr. The upstreams' processes end with it.
 */
public final class GatewayMain {
  private static final String USAGE =
      "Usage: java -jar fusion-gateway.jar --config gateway.yaml [--http PORT]";

  private GatewayMain() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    Path config = null;
    Integer httpPort = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--config" -> {
          if (i + 1 >= args.length) {
            fail("--config needs the path of the gateway's YAML or JSON file.");
          }
          config = Path.of(args[++i]);
        }
        case "--http" -> {
          if (i + 1 >= args.length || !args[i + 1].matches("\\d{1,5}")
              || Integer.parseInt(args[i + 1]) > 65535) {
            fail("--http needs a port number between 0 and 65535.");
          }
          httpPort = Integer.parseInt(args[++i]);
        }
        default -> fail("Unknown option '" + args[i] + "'.");
      }
    }
    if (config == null) {
      fail("--config is required.");
    }
    if (!Files.isRegularFile(config)) {
      fail("--config " + config + ": no such file.");
    }
    Gateway gateway = null;
    try {
      gateway = Gateway.builder().config(config).build();
    } catch (IllegalArgumentException | IllegalStateException | IOException e) {
      fail(e.getMessage());
    }
    Gateway started = gateway;
    Runtime.getRuntime().addShutdownHook(new Thread(started::close, "fusion-gateway-shutdown"));
    FusionServer server = started.server();
    System.err.println("gateway tools: " + String.join(", ", started.toolNames()));
    if (httpPort == null) {
      server.serveStdio();
      started.close();
      return;
    }
    FusionHttpServer http = FusionHttp.serve(server, HttpOptions.port(httpPort));
    System.err.println("gateway MCP server listening on " + http.endpoint());
    http.join();
  }

  private static void fail(String message) {
    System.err.println(message + " " + USAGE);
    System.exit(2);
  }
}
