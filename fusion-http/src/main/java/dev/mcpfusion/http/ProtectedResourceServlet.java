package dev.mcpfusion.http;

import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.JsonRpc;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Serves a {@link ProtectedResource} document (RFC 9728) at
 * {@code /.well-known/oauth-protected-resource} and its path-suffixed form; map it to both
 * {@value ProtectedResource#WELL_KNOWN} and {@value ProtectedResource#WELL_KNOWN}{@code /*}.
 *
 * <p>The document is public (it says where to get a token, before the client has one): no
 * authentication, and any origin may read it ({@code Access-Control-Allow-Origin: *}, as a
 * browser-based client fetches it from another origin). {@code GET} and {@code HEAD} only; a
 * path-suffixed request for another resource than this one is a {@code 404}. Needs no Jetty: any
 * servlet container can host it.
 */
public final class ProtectedResourceServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient ProtectedResource metadata;
  private final byte[] body;

  /** The servlet of {@code metadata}. */
  public ProtectedResourceServlet(ProtectedResource metadata) {
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.body = Json.write(metadata.toJson()).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    resp.setHeader("Access-Control-Allow-Origin", "*");
    if ("OPTIONS".equals(req.getMethod())) {
      resp.setHeader("Access-Control-Allow-Methods", "GET, OPTIONS");
      resp.setHeader("Access-Control-Allow-Headers", "MCP-Protocol-Version");
      resp.setStatus(204);
      return;
    }
    if (!"GET".equals(req.getMethod()) && !"HEAD".equals(req.getMethod())) {
      resp.setHeader("Allow", "GET, HEAD, OPTIONS");
      HttpFraming.send(resp, 405, HttpFraming.error(null, JsonRpc.INVALID_REQUEST, "Method Not Allowed"));
      return;
    }
    String suffix = req.getPathInfo();
    String own = metadata.resource().getRawPath();
    if (suffix != null && !suffix.equals("/") && !suffix.equals(own)) {
      HttpFraming.send(resp, 404, HttpFraming.error(null, JsonRpc.INVALID_REQUEST, "Not Found"));
      return;
    }
    resp.setStatus(200);
    resp.setContentType("application/json");
    resp.setHeader("Cache-Control", "max-age=300");
    resp.setContentLength(body.length);
    if ("GET".equals(req.getMethod())) {
      resp.getOutputStream().write(body);
    }
  }
}
