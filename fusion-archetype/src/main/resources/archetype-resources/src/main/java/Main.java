package ${package};

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.FusionHttpServer;
import dev.mcpfusion.http.HttpOptions;
import ${package}.store.TaskStore;

/**
 * Runs the connector over stdio ({@code java -jar target/${artifactId}.jar}) or over Streamable
 * HTTP on 127.0.0.1 ({@code --http PORT}, endpoint {@code http://127.0.0.1:PORT/mcp}). stdout
 * carries the stdio protocol alone; logs and messages go to stderr.
 */
public final class Main {
  private static final String USAGE = "Usage: java -jar ${artifactId}.jar [--http PORT]";

  private Main() {}

  public static void main(String[] args) throws Exception {
    FusionServer.reserveStdout();
    Integer httpPort = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--http") && i + 1 < args.length && args[i + 1].matches("\\d{1,5}")
          && Integer.parseInt(args[i + 1]) <= 65535) {
        httpPort = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--http")) {
        fail("--http needs a port number between 0 and 65535.");
      } else {
        fail("Unknown option '" + args[i] + "'.");
      }
    }
    FusionServer server = Connector.builder(TaskStore.sample()).build();
    if (httpPort == null) {
      server.serveStdio();
      return;
    }
    FusionHttpServer http = FusionHttp.serve(server, HttpOptions.port(httpPort));
    System.err.println("${artifactId} MCP server listening on " + http.endpoint());
    http.join();
  }

  private static void fail(String message) {
    System.err.println(message + " " + USAGE);
    System.exit(2);
  }
}
