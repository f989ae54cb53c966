package dev.mcpfusion.http;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running HTTP server started by {@link FusionHttp#serve}. {@link #close()} stops it gracefully:
 * the readiness probe and new requests get 503 with {@code Retry-After}, event streams end, calls
 * in flight finish within {@link HttpOptions#shutdownGrace()} (one still waiting then is answered
 * with a clean error carrying its id), then the port is released.
 */
public final class FusionHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FusionHttpServer.class);

  private final Server jetty;
  private final ServerConnector connector;
  private final McpHttpServlet servlet;
  private final HttpOptions options;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread shutdownHook;

  FusionHttpServer(Server jetty, ServerConnector connector, McpHttpServlet servlet, HttpOptions options) {
    this.jetty = jetty;
    this.connector = connector;
    this.servlet = servlet;
    this.options = options;
    if (options.stopOnShutdownSignal()) {
      shutdownHook = new Thread(this::stop, "fusion-http-shutdown");
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    } else {
      shutdownHook = null;
    }
  }

  /** The bound port (the real one when {@link HttpOptions#port()} was 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /** The MCP endpoint, e.g. {@code http://127.0.0.1:8080/mcp}. */
  public URI endpoint() {
    String host = options.bindAddress();
    if (host.equals("0.0.0.0") || host.equals("::") || host.isEmpty()) {
      host = "127.0.0.1";
    } else if (host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + port() + options.path());
  }

  McpHttpServlet servlet() {
    return servlet;
  }

  /** Blocks until the server has stopped (by {@link #close()} or a shutdown signal). */
  public void join() throws InterruptedException {
    jetty.join();
  }

  /** Whether the server still accepts requests. */
  public boolean isRunning() {
    return jetty.isRunning() && !closed.get();
  }

  /** Stops gracefully (see the class description); returns when the port is released. Idempotent. */
  @Override
  public void close() {
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is already shutting down and runs the hook itself.
        log.trace("Shutdown in progress", shuttingDown);
      }
    }
    stop();
  }

  private void stop() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    servlet.shutdown(options.shutdownGrace());
    try {
      jetty.stop();
    } catch (java.util.concurrent.TimeoutException e) {
      // Requests still open after the grace: Jetty has closed their connections anyway.
      log.info("Jetty stopped with requests still open after the shutdown grace");
    } catch (Exception e) {
      log.warn("Stopping Jetty failed", e);
    }
  }
}
