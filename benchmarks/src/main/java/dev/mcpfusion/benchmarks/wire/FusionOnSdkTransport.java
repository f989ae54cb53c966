package dev.mcpfusion.benchmarks.wire;

import dev.mcpfusion.core.Exposition;
import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.core.modern.ModernEra;
import dev.mcpfusion.samples.billing.BillingConnector;
import dev.mcpfusion.samples.billing.store.InvoiceStore;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A diagnostic subject for benchmark 4, not a product path: the billing sample's stateless era
 * ({@link ModernEra#server()}, i.e. the framework's tool repository and pipeline behind the SDK's
 * modern server) served by the SDK's own {@link HttpServletMcpTransport} at {@code /mcp}, without
 * {@code fusion-http}'s edge. Compared with {@link PlainSdkWireServer} it prices the pipeline over
 * the wire; compared with {@code BillingMain} it prices {@code fusion-http}'s stateless path.
 *
 * <pre>
 * java -cp benchmarks.jar dev.mcpfusion.benchmarks.wire.WireBenchmark --transports stateless \
 *     --fusion-main dev.mcpfusion.benchmarks.wire.FusionOnSdkTransport
 * </pre>
 */
public final class FusionOnSdkTransport {
  private FusionOnSdkTransport() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !args[0].equals("--http")) {
      System.err.println("Usage: FusionOnSdkTransport --http PORT");
      System.exit(2);
    }
    FusionServer fusion = BillingConnector.builder(InvoiceStore.sample(), Exposition.FLAT).build();
    HttpServletMcpTransport stateless = HttpServletMcpTransport.builder(ModernEra.of(fusion).server())
        .jsonMapper(fusion.jsonMapper()).endpoint("/mcp").build();

    // The same Jetty as FusionHttp.serve and PlainSdkWireServer.
    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName("diagnostic-http");
    Server jetty = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(Integer.parseInt(args[1]));
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    ServletHolder holder = new ServletHolder("mcp", stateless);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/mcp");
    jetty.setHandler(context);
    jetty.start();
    System.err.println("fusion on the SDK's stateless transport listening on http://127.0.0.1:"
        + connector.getLocalPort() + "/mcp");
    jetty.join();
  }
}
