package dev.mcpfusion.http;

import dev.mcpfusion.wire.JsonRpc;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;

/**
 * Serves one {@link PublicDocument}: {@code GET} and {@code HEAD} without authentication once the
 * Host is allowed (the same DNS-rebinding check as the endpoint), {@code OPTIONS} for a browser's
 * preflight. A document is public metadata and read-only, so every origin may read it
 * ({@code Access-Control-Allow-Origin: *}); it is cached for an hour and revalidated with its
 * {@code ETag} ({@code If-None-Match} answers {@code 304}), as the MCP server card discovery draft
 * asks of a card's host.
 *
 * <p>Public so that another servlet container can serve documents beside {@link McpHttpServlet}
 * (the Spring Boot starter registers one per document bean); {@link FusionHttp} adds these itself.
 */
public final class PublicDocumentServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  /** An hour: a document changes when the connector is redeployed, and the ETag revalidates it. */
  static final String CACHE_CONTROL = "public, max-age=3600";

  private final transient PublicDocument document;
  private final transient RequestChecks checks;
  private final byte[] body;
  private final String etag;

  /**
   * Serves {@code document}, checking each request's Host against {@code options}' allowed hosts
   * (those of the MCP endpoint it stands beside).
   */
  public PublicDocumentServlet(PublicDocument document, HttpOptions options) {
    this.document = Objects.requireNonNull(document, "document");
    this.checks = new RequestChecks(options, null);
    this.body = document.body();
    this.etag = document.etag();
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!checks.hostAllowed(req)) {
      // Not CleanErrors' bodies: they read Jetty's reason phrases, and another container (Boot's
      // Tomcat) hosts this servlet without Jetty on the class path.
      HttpFraming.send(resp, 403, HttpFraming.error(null, JsonRpc.INVALID_REQUEST,
          "Forbidden: this Host is not allowed."));
      return;
    }
    resp.setHeader("Access-Control-Allow-Origin", "*");
    if ("OPTIONS".equals(req.getMethod())) {
      resp.setHeader("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
      resp.setHeader("Access-Control-Allow-Headers", "Content-Type, If-None-Match");
      resp.setStatus(204);
      return;
    }
    if (!"GET".equals(req.getMethod()) && !"HEAD".equals(req.getMethod())) {
      resp.setHeader("Allow", "GET, HEAD, OPTIONS");
      HttpFraming.send(resp, 405, HttpFraming.error(null, JsonRpc.INVALID_REQUEST,
          "Method Not Allowed: a published document answers GET, HEAD and OPTIONS."));
      return;
    }
    resp.setHeader("Access-Control-Expose-Headers", "ETag");
    resp.setHeader("Cache-Control", CACHE_CONTROL);
    resp.setHeader("ETag", etag);
    if (matches(req.getHeader("If-None-Match"))) {
      resp.setStatus(304);
      return;
    }
    resp.setStatus(200);
    resp.setContentType(accepts(req.getHeader("Accept")) ? document.mediaType() : "application/json");
    resp.setCharacterEncoding("UTF-8");
    resp.setContentLength(body.length);
    if ("GET".equals(req.getMethod())) {
      resp.getOutputStream().write(body);
    }
  }

  private boolean matches(String ifNoneMatch) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String tag : ifNoneMatch.split(",")) {
      String t = tag.trim();
      if (t.equals("*") || t.equals(etag) || t.equals("W/" + etag)) {
        return true;
      }
    }
    return false;
  }

  private boolean accepts(String accept) {
    if (accept == null) {
      return false;
    }
    String own = document.mediaType().toLowerCase(Locale.ROOT);
    for (String part : accept.split(",")) {
      if (own.equals(HttpFraming.mediaType(part))) {
        return true;
      }
    }
    return false;
  }
}
