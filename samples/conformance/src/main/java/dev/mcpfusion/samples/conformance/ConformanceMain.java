package dev.mcpfusion.samples.conformance;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;

/**
 * Runs the conformance connector: over stdio by default, or over Streamable HTTP on 127.0.0.1
 * with {@code --http PORT} (endpoint {@code http://127.0.0.1:PORT/mcp}), for
 * {@code npx @modelcontextprotocol/conformance server --url http://127.0.0.1:PORT/mcp --suite active}.
 */
public final class ConformanceMain {
  private static final String USAGE = "Usage: java -jar fusion-sample-conformance.jar [--http PORT]";

  private ConformanceMain() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    Integer httpPort = null;
    for (int i = 0; i < args.length; i++) {
      if ("--http".equals(args[i]) && i + 1 < args.length && args[i + 1].matches("\\d{1,5}")
          && Integer.parseInt(args[i + 1]) <= 65535) {
        httpPort = Integer.parseInt(args[++i]);
      } else {
        System.err.println("Unknown or incomplete option '" + args[i] + "'. " + USAGE);
        System.exit(2);
      }
    }
    FusionServer server = ConformanceConnector.builder().build();
    if (httpPort == null) {
      server.serveStdio();
      return;
    }
    FusionHttpServer http = FusionHttp.serve(server, HttpOptions.port(httpPort));
    System.err.println("conformance MCP server listening on " + http.endpoint());
    http.join();
  }
}
