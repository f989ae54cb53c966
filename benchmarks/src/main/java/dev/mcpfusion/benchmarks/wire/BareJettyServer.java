package dev.mcpfusion.benchmarks.wire;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The container alone: Jetty, configured as {@code FusionHttp} configures it, answering every POST
 * to {@code /mcp} with a canned JSON-RPC reply of the size the billing sample's
 * {@code billing_get_invoice} answer has (725 bytes) — no parsing beyond finding the id, no MCP.
 * What a Streamable HTTP server on Jetty cannot go below, to read fusion's HTTP rows against.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.mcpfusion.benchmarks.wire.BareJettyServer servlet|core|loop|handoff PORT
 * </pre>
 *
 * {@code servlet}: an ee10 servlet, as fusion serves; {@code core}: a Jetty core {@link Handler},
 * without the servlet layer (both blocking handlers: Jetty runs them on a pool thread, the selector
 * handing over to a reserved thread or dispatching). {@code loop}: a non-blocking core handler that
 * reads the body and answers on the selector thread that read the request, as an event-loop server
 * does; {@code handoff}: the same reading, the answer computed and written on a pool thread, as an
 * event-loop server does for a blocking handler. All answer {@code initialize} with a session id and
 * a notification with 202.
 */
public final class BareJettyServer {
  /** The sample's {@code billing_get_invoice} reply for INV-0001 is 725 bytes; this pads to it. */
  private static final int REPLY_BYTES = 725;

  private BareJettyServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !List.of("servlet", "core", "loop", "handoff").contains(args[0])) {
      System.err.println("usage: BareJettyServer servlet|core|loop|handoff PORT");
      System.exit(2);
    }
    QueuedThreadPool pool = new QueuedThreadPool(200, 8);
    Server jetty = new Server(pool);
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(Integer.parseInt(args[1]));
    jetty.addConnector(connector);
    if (args[0].equals("core")) {
      jetty.setHandler(new Handler.Abstract() {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
          answer(Content.Source.asString(request, StandardCharsets.UTF_8), response, callback);
          return true;
        }
      });
    } else if (!args[0].equals("servlet")) {
      Executor answerer = args[0].equals("loop") ? Runnable::run : pool;
      // Non-blocking: Jetty calls it on the selector thread, and the body is read without waiting.
      jetty.setHandler(new Handler.Abstract.NonBlocking() {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
          Content.Source.asString(request, StandardCharsets.UTF_8, Promise.from(
              body -> answerer.execute(() -> answer(body, response, callback)), callback::failed));
          return true;
        }
      });
    } else {
      ServletContextHandler context = new ServletContextHandler("/");
      ServletHolder holder = new ServletHolder(new HttpServlet() {
        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
          byte[] reply = reply(new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
          if (reply == null) {
            resp.setStatus(202);
            return;
          }
          resp.setContentType("application/json");
          resp.setHeader("Mcp-Session-Id", "bare");
          resp.setContentLength(reply.length);
          resp.getOutputStream().write(reply);
        }
      });
      holder.setAsyncSupported(true);
      context.addServlet(holder, "/mcp");
      jetty.setHandler(context);
    }
    jetty.start();
    System.err.println("bare Jetty (" + args[0] + ") on http://127.0.0.1:" + connector.getLocalPort() + "/mcp");
    jetty.join();
  }

  private static void answer(String body, Response response, Callback callback) {
    byte[] reply = reply(body);
    if (reply == null) {
      response.setStatus(202);
      callback.succeeded();
      return;
    }
    response.getHeaders().put("Content-Type", "application/json");
    response.getHeaders().put("Mcp-Session-Id", "bare");
    response.getHeaders().put("Content-Length", reply.length);
    response.write(true, ByteBuffer.wrap(reply), callback);
  }

  /** The canned reply to {@code body}'s id, or {@code null} for a notification (no id). */
  static byte[] reply(String body) {
    int at = body.indexOf("\"id\":");
    if (at < 0) {
      return null;
    }
    int end = at + 5;
    while (end < body.length() && body.charAt(end) != ',' && body.charAt(end) != '}') {
      end++;
    }
    String id = body.substring(at + 5, end);
    String head = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":";
    if (body.contains("\"initialize\"")) {
      return (head + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
          + "\"serverInfo\":{\"name\":\"bare\",\"version\":\"1\"}}}").getBytes(StandardCharsets.UTF_8);
    }
    String empty = head + "{\"content\":[{\"type\":\"text\",\"text\":\"";
    String tail = "\"}]}}";
    String text = "x".repeat(Math.max(0, REPLY_BYTES - empty.length() - tail.length()));
    return (empty + text + tail).getBytes(StandardCharsets.UTF_8);
  }
}
