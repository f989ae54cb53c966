package dev.mcpfusion.http;

import dev.mcpfusion.core.FusionServer;
import jakarta.servlet.http.HttpServlet;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Serves a {@link FusionServer} over Streamable HTTP (MCP 2025-03-26 … 2025-11-25, with sessions)
 * on embedded Jetty, or as a servlet for an existing container.
 *
 * <pre>{@code
 * try (FusionHttpServer http = FusionHttp.serve(server, HttpOptions.port(8080))) {
 *   http.join();                      // http://127.0.0.1:8080/mcp until SIGTERM or close()
 * }
 * }</pre>
 */
public final class FusionHttp {
  /**
   * The liveness probe of the embedded server: 200 {@code {"status":"live"}} while it serves HTTP.
   * No authentication; not an MCP endpoint.
   */
  public static final String LIVE_PATH = "/health/live";
  /**
   * The readiness probe of the embedded server: 200 {@code {"status":"ready"}} while the MCP
   * endpoint takes new requests, 503 {@code {"status":"draining"}} with {@code Retry-After} once a
   * graceful stop (SIGTERM or {@link FusionHttpServer#close()}) has begun. No authentication.
   */
  public static final String READY_PATH = "/health/ready";

  private FusionHttp() {}

  /**
   * Starts Jetty on {@code options.bindAddress():options.port()} serving {@code server} at
   * {@code options.path()}, with the probes {@value #LIVE_PATH} and {@value #READY_PATH} beside
   * it; returns once it accepts connections. Closing the result stops it gracefully.
   *
   * <p>The documents of {@link HttpOptions#publish(PublicDocument...)} are served beside it, each
   * at its path.
   *
   * @throws IllegalArgumentException when {@code options.path()} is one of the probes' paths, or a
   *     published document's path is taken
   * @throws IllegalStateException when the server cannot start (e.g. the port is taken)
   */
  public static FusionHttpServer serve(FusionServer server, HttpOptions options) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(options, "options");
    if (options.path().equals(LIVE_PATH) || options.path().equals(READY_PATH)) {
      throw new IllegalArgumentException("The MCP endpoint's path '" + options.path()
          + "' is a health probe's path (" + LIVE_PATH + ", " + READY_PATH
          + "); serve MCP at another path, such as /mcp.");
    }
    McpHttpServlet servlet = new McpHttpServlet(server, options);

    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName("fusion-http");
    Server jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setRequestHeaderSize(options.maxHeaderBytes());
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost(options.bindAddress());
    connector.setPort(options.port());
    jetty.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler("/");
    ServletHolder mcp = new ServletHolder("mcp", servlet);
    mcp.setAsyncSupported(true);
    context.addServlet(mcp, options.path());
    ProtectedResource metadata = options.auth() == null ? null : options.auth().protectedResource();
    if (metadata != null) {
      ServletHolder wellKnown = new ServletHolder("oauth-protected-resource",
          new ProtectedResourceServlet(metadata));
      context.addServlet(wellKnown, ProtectedResource.WELL_KNOWN);
      context.addServlet(wellKnown, ProtectedResource.WELL_KNOWN + "/*");
    }
    Set<String> taken = new HashSet<>(List.of(options.path(),
        LIVE_PATH, READY_PATH));
    for (PublicDocument document : options.documents()) {
      if (!taken.add(document.path()) || document.path().startsWith(ProtectedResource.WELL_KNOWN)) {
        servlet.shutdown(Duration.ZERO);
        throw new IllegalArgumentException("The published document path '" + document.path()
            + "' is already served (the MCP endpoint, a probe, the OAuth metadata or another"
            + " document); give each document its own path.");
      }
      context.addServlet(new ServletHolder("document " + document.path(),
          new PublicDocumentServlet(document, options)), document.path());
    }
    context.addServlet(new ServletHolder("live", new HealthServlet(servlet, false)), LIVE_PATH);
    context.addServlet(new ServletHolder("ready", new HealthServlet(servlet, true)), READY_PATH);
    context.addServlet(new ServletHolder("not-found", new NotFoundServlet()), "/");
    context.setErrorHandler(new CleanErrors.ContextHandler());
    jetty.setErrorHandler(new CleanErrors.ServerHandler());
    jetty.setHandler(IoThreadFront.applies(options)
        ? new IoThreadFront(context, options.maxBodyBytes(), threads, servlet) : context);
    jetty.setStopTimeout(Math.max(1000, options.shutdownGrace().toMillis()));
    try {
      jetty.start();
    } catch (Exception e) {
      servlet.shutdown(java.time.Duration.ZERO);
      try {
        jetty.stop();
      } catch (Exception stopFailure) {
        e.addSuppressed(stopFailure);
      }
      throw new IllegalStateException("Could not start the HTTP server on " + options.bindAddress()
          + ":" + options.port() + ": " + e.getMessage(), e);
    }
    return new FusionHttpServer(jetty, connector, servlet, options);
  }

  /**
   * The endpoint as a servlet, for an existing Servlet 6 container. Register it with
   * {@code asyncSupported = true}; the container's port is the one Host and Origin are checked
   * against. {@code options.bindAddress()}, {@code port()} and {@code path()} are the container's
   * business and are ignored; {@code destroy()} drains calls in flight within the shutdown grace.
   * Calling this loads Jetty with this class; where Jetty is not on the class path (a container of
   * its own, such as Spring Boot's Tomcat), construct {@link McpHttpServlet} directly.
   */
  public static HttpServlet servlet(FusionServer server, HttpOptions options) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(options, "options");
    return new McpHttpServlet(server, options);
  }
}
