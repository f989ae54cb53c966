package dev.mcpfusion.http;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The probes of an orchestrator, beside the MCP endpoint: {@value FusionHttp#LIVE_PATH} answers
 * 200 while the process serves HTTP at all; {@value FusionHttp#READY_PATH} answers 200 while the
 * endpoint takes new requests and 503 (with {@code Retry-After}) from the moment it starts to
 * drain, so a load balancer stops routing here before the calls in flight are over.
 *
 * <p>A probe carries no credentials (a kubelet sends none), so this servlet runs no auth hook,
 * Host or Origin check; in exchange it says nothing but its status: no version, name, session
 * count or configuration. {@code GET} and {@code HEAD} only.
 */
final class HealthServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final byte[] LIVE = body("live");
  private static final byte[] READY = body("ready");
  private static final byte[] DRAINING = body("draining");

  private final transient McpHttpServlet endpoint;
  private final boolean readiness;

  HealthServlet(McpHttpServlet endpoint, boolean readiness) {
    this.endpoint = endpoint;
    this.readiness = readiness;
  }

  private static byte[] body(String status) {
    return ("{\"status\":\"" + status + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!"GET".equals(req.getMethod()) && !"HEAD".equals(req.getMethod())) {
      resp.setHeader("Allow", "GET, HEAD");
      HttpFraming.send(resp, 405, CleanErrors.body(405));
      return;
    }
    // A probe's answer is about this instant: no cache between the prober and this process.
    resp.setHeader("Cache-Control", "no-store");
    byte[] body;
    if (!readiness) {
      resp.setStatus(200);
      body = LIVE;
    } else if (endpoint.isDraining()) {
      resp.setStatus(503);
      resp.setHeader("Retry-After", String.valueOf(McpHttpServlet.DRAIN_RETRY_AFTER_SECONDS));
      body = DRAINING;
    } else {
      resp.setStatus(200);
      body = READY;
    }
    resp.setContentType("application/json");
    resp.setContentLength(body.length);
    if ("GET".equals(req.getMethod())) {
      resp.getOutputStream().write(body);
    }
  }
}
