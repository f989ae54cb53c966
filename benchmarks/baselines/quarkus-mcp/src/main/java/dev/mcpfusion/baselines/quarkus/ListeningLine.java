package dev.mcpfusion.baselines.quarkus;

import io.quarkus.vertx.http.HttpServerStart;
import jakarta.enterprise.event.ObservesAsync;

/**
 * Prints {@code quarkus MCP server listening on http://127.0.0.1:<port>/mcp} to stderr once the HTTP
 * server listens: the line the benchmark's load clients wait for (they read the port from it).
 */
public class ListeningLine {
  void onStart(@ObservesAsync HttpServerStart start) {
    System.err.println("quarkus MCP server listening on http://127.0.0.1:" + start.options().getPort() + "/mcp");
  }
}
