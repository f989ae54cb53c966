package dev.mcpfusion.core.edge;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.transport.StdioTransport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** Serves a {@link FusionServer} over our {@link StdioTransport} on two {@link Pipe}s, for tests. */
final class PipedStdio {
  private PipedStdio() {}

  /**
   * Connects {@code server} to a stdio transport reading {@code toServer} and writing
   * {@code fromServer}, and serves it on a daemon
   * thread named {@code threadName}; {@code fromServer} is closed when serving ends.
   */
  static Thread serve(FusionServer server, Pipe toServer, Pipe fromServer,
      String threadName) {
    StdioTransport transport = new StdioTransport(toServer.in, fromServer.out, server.edge(),
        Duration.ofSeconds(30));
    Thread serving = new Thread(() -> {
      try {
        transport.serve();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        fromServer.out.close();
      }
    }, threadName);
    serving.setDaemon(true);
    serving.start();
    return serving;
  }
}
